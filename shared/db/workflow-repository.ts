import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Workflow } from '../domain/workflow';
import { ConflictError, NotFoundError } from '../errors';
import type { Db } from './client';
import { isConditionFailure } from './conditions';
import { fromItem, queryBusinessPrefix } from './items';
import { businessPrefixQuery, readKeyPage, type KeyPage, type KeyPageRequest } from './key-pages';
import { keys, pageKeyAttributes } from './table';

/** A business's workflows, one item each under its business partition. */
export class WorkflowRepository {
  constructor(private readonly db: Db) {}

  async insertWorkflow(businessId: number, workflow: Workflow): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.tableName,
        Item: { ...keys.workflow(businessId, workflow.id), entity: 'workflow', ...workflow },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
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

  async deleteWorkflow(businessId: number, workflowId: number): Promise<void> {
    await this.db.doc.send(new DeleteCommand({ TableName: this.db.tableName, Key: keys.workflow(businessId, workflowId) }));
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
