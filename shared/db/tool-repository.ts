import { BatchGetCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Tool } from '../domain/tool';
import { ConflictError, NotFoundError } from '../errors';
import type { Db } from './client';
import { quotaExceeded } from '../domain/quota';
import { cancelledTransactionItem, isCancelledTransaction } from './conditions';
import { transactCounted } from './counted-transaction';
import { QuotaRepository, quotaCount, quotaGiveBack, quotaTake } from './quotas';
import { namingAssistants, referencesCount, referencesCreate, referencesDelete, ResourceInUseError } from './references';
import { fromItem, queryBusinessPrefix } from './items';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { keys, pageKeyAttributes } from './table';

/** A tool as stored: records from before `filler`/`updated_at` lack them (see `toToolView`). */
export type ToolRecord = Omit<Tool, 'filler' | 'updated_at'> & Partial<Pick<Tool, 'filler' | 'updated_at'>>;

/** The name is taken by another tool of the business (a lost race with a concurrent save). */
export class ToolNameTakenError extends ConflictError {
  constructor(readonly toolName: string) {
    super('conflict', `A tool named ${toolName} already exists.`);
    this.name = 'ToolNameTakenError';
  }
}

/** Deletes tried before a tool that keeps being saved meanwhile is a 409. */
const DELETE_ATTEMPTS = 3;

interface Condition {
  ConditionExpression: string;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** The condition that a tool item is still as read (records from before `updated_at` lack it). */
function unchangedSince(tool: ToolRecord): Condition {
  return tool.updated_at === undefined
    ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(updated_at)' }
    : { ConditionExpression: 'attribute_exists(pk) AND updated_at = :read', ExpressionAttributeValues: { ':read': tool.updated_at } };
}

/**
 * A business's custom tools. Each tool is written together with a name item (`TOOLNAME#<name>`),
 * in one transaction, so two saves can never leave two tools of one name in a business.
 */
export class ToolRepository {
  private readonly quotas: QuotaRepository;

  constructor(private readonly db: Db) {
    this.quotas = new QuotaRepository(db);
  }

  private put(businessId: number, tool: Tool, condition: Condition) {
    return { Put: { TableName: this.db.tableName, Item: { ...keys.tool(businessId, tool.id), entity: 'tool', ...tool }, ...condition } };
  }

  private claimName(businessId: number, tool: Tool) {
    return {
      Put: {
        TableName: this.db.tableName,
        Item: { ...keys.toolName(businessId, tool.name), entity: 'tool_name', tool_id: tool.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  private releaseName(businessId: number, name: string) {
    return { Delete: { TableName: this.db.tableName, Key: keys.toolName(businessId, name) } };
  }

  /**
   * Adds a tool, claims its name, takes one of the business's tool quota and creates its references
   * item, in one transaction: the count refuses the tool at the quota, so concurrent creates cannot
   * pass it. A business whose tools predate the count has it seeded from its tools first
   * (shared/db/counted-transaction.ts).
   * @throws ToolNameTakenError, QuotaExceededError
   */
  async insertTool(businessId: number, tool: Tool): Promise<void> {
    const quota = await this.quotas.quotaOf(businessId, 'tools');
    try {
      await transactCounted(
        this.db,
        [
          this.put(businessId, tool, { ConditionExpression: 'attribute_not_exists(pk)' }),
          this.claimName(businessId, tool),
          quotaTake(this.db, businessId, 'tools', quota),
          referencesCreate(this.db, businessId, { kind: 'tool', id: tool.id }),
        ],
        quotaCount(this.db, businessId, 'tools', 2),
      );
    } catch (error) {
      if (isCancelledTransaction(error, 1)) throw new ToolNameTakenError(tool.name);
      if (isCancelledTransaction(error, 2)) throw quotaExceeded('tools', quota);
      throw error;
    }
  }

  /**
   * Replaces a tool read at `before.updated_at` (a concurrent save makes this one a 409, never a
   * silent overwrite); a new name is claimed and the old one released in the same transaction.
   * @throws ToolNameTakenError, NotFoundError, ConflictError
   */
  async replaceTool(businessId: number, before: ToolRecord, after: Tool): Promise<void> {
    const renamed = before.name !== after.name;
    const items: object[] = [this.put(businessId, after, unchangedSince(before))];
    if (renamed) items.push(this.claimName(businessId, after), this.releaseName(businessId, before.name));
    try {
      await this.db.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
    } catch (error) {
      if (renamed && isCancelledTransaction(error, 1)) throw new ToolNameTakenError(after.name);
      if (isCancelledTransaction(error, 0)) {
        if ((await this.findTool(businessId, before.id)) === undefined) throw new NotFoundError(`Tool ${before.id} not found.`);
        throw new ConflictError('conflict', `Tool ${before.id} changed meanwhile; read it again and retry.`);
      }
      throw error;
    }
  }

  /**
   * Deletes a tool as it was read, releases its name and uncounts it. The delete is conditioned on
   * the `updated_at` read, so a rename that lands first cannot leave its new name claimed by no
   * tool: the tool is read again and deleted as it now is.
   * @throws NotFoundError when it is gone (a concurrent delete won), ConflictError when it keeps changing
   */
  async deleteTool(businessId: number, tool: ToolRecord): Promise<void> {
    let current = tool;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#deleteOnce(businessId, current);
        return;
      } catch (error) {
        const refs = cancelledTransactionItem(error, 3);
        if (refs?.item) throw new ResourceInUseError({ kind: 'tool', id: tool.id }, namingAssistants(refs.item));
        if (!isCancelledTransaction(error, 0)) throw error;
      }
      const fresh = await this.findTool(businessId, tool.id);
      if (fresh === undefined) throw new NotFoundError(`Tool ${tool.id} not found.`);
      if (attempt === DELETE_ATTEMPTS) throw new ConflictError('conflict', `Tool ${tool.id} kept changing; read it again and retry.`);
      current = fresh;
    }
  }

  /**
   * A count missing (tools older than it) is seeded first, so a delete never sets it below the tools
   * left; the references item refuses the delete while an assistant names the tool.
   */
  #deleteOnce(businessId: number, tool: ToolRecord) {
    const ref = { kind: 'tool' as const, id: tool.id };
    return transactCounted(
      this.db,
      [
        { Delete: { TableName: this.db.tableName, Key: keys.tool(businessId, tool.id), ...unchangedSince(tool) } },
        this.releaseName(businessId, tool.name),
        quotaGiveBack(this.db, businessId, 'tools'),
        referencesDelete(this.db, businessId, ref),
      ],
      [quotaCount(this.db, businessId, 'tools', 2), referencesCount(this.db, businessId, ref, 3)],
    );
  }

  /** One tool of this business, or undefined (another business's id is simply not found). */
  async findTool(businessId: number, toolId: number): Promise<ToolRecord | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.tool(businessId, toolId) }));
    return result.Item ? fromItem<ToolRecord>(result.Item) : undefined;
  }

  /** The business's tools (at most `TOOL_LIMITS.toolsPerBusiness`, so one query). */
  /** GET /tools: one page, newest (highest id) first, read by key. */
  async pageTools(businessId: number, request: KeyPageRequest): Promise<KeyPage<ToolRecord>> {
    return readKeyPage(this.db, businessPrefixQuery(businessId, keys.toolPrefix(), 'newest-first'), pageKeyAttributes(), request);
  }

  async listTools(businessId: number): Promise<ToolRecord[]> {
    return queryBusinessPrefix<ToolRecord>(this.db, businessId, keys.toolPrefix());
  }

  /**
   * The tools of these ids that exist for this business, in the order asked (one batch read per
   * 100 ids; a call loads its assistant's `tool_ids`, at most 64, once when it starts).
   */
  async getTools(businessId: number, toolIds: readonly number[]): Promise<ToolRecord[]> {
    const unique = [...new Set(toolIds)];
    const found = new Map<number, ToolRecord>();
    for (let i = 0; i < unique.length; i += 100) {
      let request: Record<string, { Keys: Record<string, string>[] }> | undefined = {
        [this.db.tableName]: { Keys: unique.slice(i, i + 100).map((id) => keys.tool(businessId, id)) },
      };
      while (request && Object.keys(request).length > 0) {
        const result = await this.db.doc.send(new BatchGetCommand({ RequestItems: request }));
        for (const item of result.Responses?.[this.db.tableName] ?? []) {
          const tool = fromItem<ToolRecord>(item);
          found.set(tool.id, tool);
        }
        request = result.UnprocessedKeys as typeof request;
      }
    }
    return unique.flatMap((id) => found.get(id) ?? []);
  }
}
