import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { quotaExceeded } from '../domain/quota';
import type { Workflow } from '../domain/workflow';
import { ConflictError, NotFoundError } from '../errors';
import type { Db } from './client';
import { cancelledTransactionItem, isCancelledTransaction, isConditionFailure } from './conditions';
import { transactCounted } from './counted-transaction';
import { QuotaRepository, quotaCount, quotaGiveBack, quotaTake } from './quotas';
import { namingAssistants, referencesCount, referencesCreate, referencesDelete, ResourceInUseError } from './references';
import { fromItem, queryBusinessPrefix } from './items';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { keys, pageKeyAttributes } from './table';

/** A business's workflows, one item each under its business partition. */
export class WorkflowRepository {
  private readonly quotas: QuotaRepository;

  constructor(private readonly db: Db) {
    this.quotas = new QuotaRepository(db);
  }

  /**
   * Adds a workflow, taking one of the business's workflow quota and creating its references item,
   * in one transaction: past the quota it is refused, however many creates run at once.
   * @throws QuotaExceededError
   */
  async insertWorkflow(businessId: number, workflow: Workflow): Promise<void> {
    const quota = await this.quotas.quotaOf(businessId, 'workflows');
    const put = {
      Put: {
        TableName: this.db.tableName,
        Item: { ...keys.workflow(businessId, workflow.id), entity: 'workflow', ...workflow },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const ref = { kind: 'workflow' as const, id: workflow.id };
    try {
      await transactCounted(
        this.db,
        [put, quotaTake(this.db, businessId, 'workflows', quota), referencesCreate(this.db, businessId, ref)],
        quotaCount(this.db, businessId, 'workflows', 1),
      );
    } catch (error) {
      if (isCancelledTransaction(error, 1)) throw quotaExceeded('workflows', quota);
      throw error;
    }
  }

  /**
   * Replaces a workflow read at `before.updated_at`: a concurrent save makes this one a 409, never
   * a silent overwrite. @throws NotFoundError, ConflictError
   */
  async replaceWorkflow(businessId: number, before: Workflow, after: Workflow): Promise<void> {
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.tableName,
          Item: { ...keys.workflow(businessId, after.id), entity: 'workflow', ...after },
          ConditionExpression: 'attribute_exists(pk) AND updated_at = :before',
          ExpressionAttributeValues: { ':before': before.updated_at },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if ((await this.findWorkflow(businessId, before.id)) === undefined) throw new NotFoundError(`Workflow ${before.id} not found.`);
      throw new ConflictError('conflict', `Workflow ${before.id} changed meanwhile; read it again and retry.`);
    }
  }

  /**
   * Deletes a workflow no assistant names, giving its quota back, in one transaction: its
   * references item is the in-use check (shared/db/references.ts), no assistant is read.
   * @throws ResourceInUseError, NotFoundError (a concurrent delete won)
   */
  async deleteWorkflow(businessId: number, workflowId: number): Promise<void> {
    const ref = { kind: 'workflow' as const, id: workflowId };
    try {
      await transactCounted(
        this.db,
        [
          {
            Delete: {
              TableName: this.db.tableName,
              Key: keys.workflow(businessId, workflowId),
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          quotaGiveBack(this.db, businessId, 'workflows'),
          referencesDelete(this.db, businessId, ref),
        ],
        [quotaCount(this.db, businessId, 'workflows', 1), referencesCount(this.db, businessId, ref, 2)],
      );
    } catch (error) {
      if (isCancelledTransaction(error, 0)) throw new NotFoundError(`Workflow ${workflowId} not found.`);
      const refs = cancelledTransactionItem(error, 2);
      if (refs?.item) throw new ResourceInUseError(ref, namingAssistants(refs.item));
      throw error;
    }
  }

  /** One workflow of this business, or undefined (another business's id is simply not found). */
  async findWorkflow(businessId: number, workflowId: number): Promise<Workflow | undefined> {
    const result = await this.db.doc.send(new GetCommand({ TableName: this.db.tableName, Key: keys.workflow(businessId, workflowId) }));
    return result.Item ? fromItem<Workflow>(result.Item) : undefined;
  }

  /** The business's workflows (at most `WORKFLOW_LIMITS.workflowsPerBusiness`, so one query). */
  /** GET /workflows: one page, newest (highest id) first, read by key. */
  async pageWorkflows(businessId: number, request: KeyPageRequest): Promise<KeyPage<Workflow>> {
    return readKeyPage(this.db, businessPrefixQuery(businessId, keys.workflowPrefix(), 'newest-first'), pageKeyAttributes(), request);
  }

  async listWorkflows(businessId: number): Promise<Workflow[]> {
    return queryBusinessPrefix<Workflow>(this.db, businessId, keys.workflowPrefix());
  }
}
