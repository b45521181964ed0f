import { BatchGetCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Tool } from '../domain/tool';
import { ConflictError, NotFoundError } from '../errors';
import type { Db } from './client';
import { isCancelledTransaction } from './conditions';
import { countBusinessItems, transactCounted, unlessSeeded, type CountInTransaction } from './counted-transaction';
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

/** The business has as many tools as it may (a lost race with concurrent creates included). */
export class ToolLimitError extends Error {
  constructor(readonly max: number) {
    super(`A business has at most ${max} tools.`);
    this.name = 'ToolLimitError';
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
  constructor(private readonly db: Db) {}

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
   * Adds a tool, claims its name and counts it, in one transaction: the count item refuses the
   * tool at `max`, so concurrent creates cannot pass the cap. A business whose tools predate the
   * count has it seeded from its tools first (shared/db/counted-transaction.ts).
   * @throws ToolNameTakenError, ToolLimitError
   */
  async insertTool(businessId: number, tool: Tool, max: number): Promise<void> {
    const count = {
      Update: {
        TableName: this.db.tableName,
        Key: keys.toolCount(businessId),
        UpdateExpression: 'SET tools = tools + :one',
        ConditionExpression: 'tools < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': max },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
    try {
      await transactCounted(
        this.db,
        [this.put(businessId, tool, { ConditionExpression: 'attribute_not_exists(pk)' }), this.claimName(businessId, tool), count],
        this.toolCount(businessId, 2),
      );
    } catch (error) {
      if (isCancelledTransaction(error, 1)) throw new ToolNameTakenError(tool.name);
      if (isCancelledTransaction(error, 2)) throw new ToolLimitError(max);
      throw error;
    }
  }

  /** The business's tool count at `index` of a transaction, seeded from its `TOOL#` items. */
  private toolCount(businessId: number, index: number): CountInTransaction {
    return {
      index,
      unseeded: (item) => item?.tools === undefined,
      seed: async () => {
        const tools = await countBusinessItems(this.db, businessId, keys.toolPrefix());
        await unlessSeeded(
          this.db.doc.send(
            new PutCommand({
              TableName: this.db.tableName,
              Item: { ...keys.toolCount(businessId), entity: 'tool_count', tools },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          ),
        );
      },
    };
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
        if (!isCancelledTransaction(error, 0)) throw error;
      }
      const fresh = await this.findTool(businessId, tool.id);
      if (fresh === undefined) throw new NotFoundError(`Tool ${tool.id} not found.`);
      if (attempt === DELETE_ATTEMPTS) throw new ConflictError('conflict', `Tool ${tool.id} kept changing; read it again and retry.`);
      current = fresh;
    }
  }

  /** A count missing (tools older than it) is seeded first, so a delete never sets it below the tools left. */
  #deleteOnce(businessId: number, tool: ToolRecord) {
    return transactCounted(
      this.db,
      [
        { Delete: { TableName: this.db.tableName, Key: keys.tool(businessId, tool.id), ...unchangedSince(tool) } },
        this.releaseName(businessId, tool.name),
        {
          Update: {
            TableName: this.db.tableName,
            Key: keys.toolCount(businessId),
            UpdateExpression: 'SET tools = tools - :one',
            ConditionExpression: 'attribute_exists(tools)',
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ],
      this.toolCount(businessId, 2),
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
