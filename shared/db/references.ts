import { GetCommand, paginateQuery, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AssistantConfig } from '../domain/assistant-config';
import type { Db } from './client';
import { unlessSeeded, type CountInTransaction } from './counted-transaction';
import { keys } from './table';

/**
 * Which assistants name a tool, knowledge base or workflow (docs/decisions.md "Quotas", the in-use
 * check). Each such resource has a references item (`REFS#…`, a number set `assistants`), created
 * with it and deleted with it: an assistant write that starts naming it adds the assistant's id in
 * the same transaction, conditioned on the item existing (so on the resource existing), and one
 * that stops naming it removes the id. The resource's delete removes the item only while the set
 * is empty, so "is it in use" is one item in the delete's own transaction, never a read of every
 * assistant, and no assistant can start naming it meanwhile.
 *
 * Resources from before the references have no item: the first transaction that needs it seeds it
 * once from the assistants' configs (nothing naming it can change meanwhile: every such write needs
 * the item). A resource already gone gets an item marked `gone`, so an assistant still naming it
 * from before can drop the name, and none can add it.
 */

/** What an assistant config can name. */
export type ReferenceKind = 'tool' | 'knowledge_base' | 'workflow';

/** One resource an assistant names. */
export interface Reference {
  kind: ReferenceKind;
  id: number;
}

const resourceKey = (businessId: number, ref: Reference) =>
  ref.kind === 'tool'
    ? keys.tool(businessId, ref.id)
    : ref.kind === 'knowledge_base'
      ? keys.knowledgeBase(businessId, ref.id)
      : keys.workflow(businessId, ref.id);

/** The resources a config names, each once. */
export function configReferences(config: Pick<AssistantConfig, 'tool_ids' | 'knowledge_ids' | 'workflow_id'>): Reference[] {
  const refs: Reference[] = [
    ...[...new Set(config.tool_ids ?? [])].map((id) => ({ kind: 'tool' as const, id })),
    ...[...new Set(config.knowledge_ids ?? [])].map((id) => ({ kind: 'knowledge_base' as const, id })),
  ];
  if (config.workflow_id !== null && config.workflow_id !== undefined) refs.push({ kind: 'workflow', id: config.workflow_id });
  return refs;
}

/** The references in `from` that `to` lacks. */
export function referencesLeft(from: readonly Reference[], to: readonly Reference[]): Reference[] {
  return from.filter((ref) => !to.some((other) => other.kind === ref.kind && other.id === ref.id));
}

/** A resource's delete refused because assistants name it (their ids, ascending). */
export class ResourceInUseError extends Error {
  constructor(
    readonly ref: Reference,
    readonly assistantIds: number[],
  ) {
    super(`${ref.kind} ${ref.id} is named by assistants ${assistantIds.join(', ')}.`);
    this.name = 'ResourceInUseError';
  }
}

/** An assistant write named a resource that is gone (deleted since the write checked it). */
export class ReferenceMissingError extends Error {
  constructor(readonly ref: Reference) {
    super(`${ref.kind} ${ref.id} does not exist.`);
    this.name = 'ReferenceMissingError';
  }
}

/** The references item of a new resource (in the resource's create transaction). */
export function referencesCreate(db: Db, businessId: number, ref: Reference): object {
  return {
    Put: {
      TableName: db.tableName,
      Item: { ...keys.references(businessId, ref.kind, ref.id), entity: 'references' },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The assistant starts naming the resource: only while it exists (its item does, and is not `gone`). */
export function referenceAdd(db: Db, businessId: number, ref: Reference, assistantId: number): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.references(businessId, ref.kind, ref.id),
      UpdateExpression: 'ADD assistants :id',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gone)',
      ExpressionAttributeValues: { ':id': new Set([assistantId]) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The assistant stops naming the resource (an empty set is removed by DynamoDB itself). */
export function referenceRemove(db: Db, businessId: number, ref: Reference, assistantId: number): object {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.references(businessId, ref.kind, ref.id),
      UpdateExpression: 'DELETE assistants :id',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':id': new Set([assistantId]) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The resource's delete: its references item goes too, only while no assistant names it. */
export function referencesDelete(db: Db, businessId: number, ref: Reference): object {
  return {
    Delete: {
      TableName: db.tableName,
      Key: keys.references(businessId, ref.kind, ref.id),
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(assistants)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The assistants a refused references item names, ascending. */
export function namingAssistants(item: Record<string, unknown> | undefined): number[] {
  const set = item?.assistants;
  return set instanceof Set ? [...(set as Set<number>)].map(Number).sort((a, b) => a - b) : [];
}

/**
 * The resource's references item at `index` of a transaction, seeded when missing (a resource from
 * before the references): from the assistants' configs, read consistently, once; marked `gone`
 * when the resource no longer exists.
 */
export function referencesCount(db: Db, businessId: number, ref: Reference, index: number): CountInTransaction {
  return {
    index,
    unseeded: (item) => item === undefined,
    seed: async () => {
      const [resource, users] = await Promise.all([
        db.doc.send(new GetCommand({ TableName: db.tableName, Key: resourceKey(businessId, ref), ConsistentRead: true })),
        assistantsNaming(db, businessId, ref),
      ]);
      await unlessSeeded(
        db.doc.send(
          new PutCommand({
            TableName: db.tableName,
            Item: {
              ...keys.references(businessId, ref.kind, ref.id),
              entity: 'references',
              ...(users.length > 0 && { assistants: new Set(users) }),
              ...(resource.Item === undefined && { gone: true }),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    },
  };
}

/** The ids of the business's assistants whose config names `ref` (a consistent read of their references only). */
async function assistantsNaming(db: Db, businessId: number, ref: Reference): Promise<number[]> {
  const users: number[] = [];
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.business(businessId).pk, ':prefix': keys.assistantPrefix() },
      ProjectionExpression: '#id, #config.tool_ids, #config.knowledge_ids, #config.workflow_id',
      ExpressionAttributeNames: { '#id': 'id', '#config': 'config' },
      ConsistentRead: true,
    },
  );
  for await (const page of pages)
    for (const item of page.Items ?? []) {
      const config = (item.config ?? {}) as Pick<AssistantConfig, 'tool_ids' | 'knowledge_ids' | 'workflow_id'>;
      if (configReferences(config).some((named) => named.kind === ref.kind && named.id === ref.id)) users.push(Number(item.id));
    }
  return users;
}
