import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { handleDeadLetters } from '../../../functions/knowledge-dead-letters/handle-batch';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { KnowledgeRepository } from '../../../shared/db/knowledge-repository';
import type { Chunk, IngestJob } from '../../../shared/domain/knowledge';
import { failAbandonedDocument, type DeadLetterDeps } from '../../../shared/knowledge/dead-letters';
import { GAVE_UP_REASON } from '../../../shared/knowledge/failure-reasons';
import { ingestDocument } from '../../../shared/knowledge/ingest';
import { pollDeadLetters, pollIngestQueue, SqsIngestQueue } from '../../../shared/queue/knowledge-ingest';
import { createApiHarness, type ApiHarness, type TenantClient } from '../../support/api-harness';
import { captureLogger } from '../../support/capture-logger';
import { knowledgeApi } from '../../support/knowledge-harness';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/** A table that refuses every chunk write, as DynamoDB does in an outage: ingestion throws on every try. */
class RefusingRepository extends KnowledgeRepository {
  putTries = 0;

  override async putChunks(): Promise<void> {
    this.putTries++;
    throw new Error('ProvisionedThroughputExceededException');
  }
}

/** A table whose document finish fails for one document (the dead-letter write itself failing). */
class FailingFinishRepository extends KnowledgeRepository {
  failFor = -1;

  override async finishDocument(...args: Parameters<KnowledgeRepository['finishDocument']>) {
    if (args[1].id === this.failFor) throw new Error('InternalServerError');
    return super.finishDocument(...args);
  }
}

const sqs = new SQSClient({
  region: 'us-east-1',
  endpoint: inject('sqsEndpoint'),
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

let openai: OpenAiSandboxServer;
let harness: ApiHarness;
/** The API with a queue that keeps the jobs: its documents stay `processing` until a test hands a job over. */
let api: ReturnType<typeof knowledgeApi>;
let owner: TenantClient;
const jobs: IngestJob[] = [];

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start();
  harness = await createApiHarness();
  api = knowledgeApi(harness, openai, { queue: { enqueue: async (job) => void jobs.push(job) } });
  owner = await harness.newTenant({ numbers: 0 });
});

afterAll(async () => {
  await openai?.close();
});

function deadLetterDeps(knowledge: KnowledgeRepository = api.repo) {
  const logs = captureLogger();
  return { deps: { knowledge, now: () => new Date('2026-11-26T12:00:00Z'), log: logs.log } satisfies DeadLetterDeps, logs };
}

/** A new base with one `processing` document, and its ingestion message's body. */
async function processingDocument(target = api): Promise<{ kbId: number; docId: number; body: string }> {
  const kb = await json(await target.request(owner.apiKey, 'POST', '/knowledge-bases', { name: 'Hours' }));
  const doc = await json(
    await target.request(owner.apiKey, 'POST', `/knowledge-bases/${kb.id}/documents`, { name: 'Hours', text: 'We are open on Saturdays.' }),
  );
  expect(doc.status).toBe('processing');
  return {
    kbId: kb.id,
    docId: doc.id,
    body: JSON.stringify({ business_id: owner.businessId, knowledge_base_id: kb.id, document_id: doc.id }),
  };
}

async function documentOf(kbId: number, docId: number, target = api): Promise<Json> {
  return json(await target.request(owner.apiKey, 'GET', `/knowledge-bases/${kbId}/documents/${docId}`));
}

describe('a document whose ingestion message was dead-lettered', () => {
  it('ends failed with a plain reason, the chunks a failed try left removed', async () => {
    // Arrange: a try that stored chunks, then failed before the finish
    const { kbId, docId, body } = await processingDocument();
    const chunks: Chunk[] = [{ heading: 'Hours', text: 'We are open on Saturdays.' }];
    await api.repo.putChunks(owner.businessId, kbId, docId, chunks, [new Float32Array(256).fill(0.0625)], 256);
    const { deps, logs } = deadLetterDeps();

    // Act
    await failAbandonedDocument(body, deps);

    // Assert
    expect(await documentOf(kbId, docId)).toMatchObject({
      status: 'failed',
      failure_reason: GAVE_UP_REASON,
      chunk_count: 0,
      truncated: false,
      updated_at: '2026-11-26T12:00:00.000Z',
    });
    expect(await api.repo.loadChunks(owner.businessId, kbId)).toEqual([]);
    expect(logs.messages()).toContain('knowledge ingestion gave up on a document after every retry; it is marked failed');
  });

  it('leaves a document that finished or was deleted meanwhile alone, and drops a malformed message', async () => {
    // Arrange: one document made ready by its last try, one deleted by its business
    const ready = await processingDocument();
    await ingestDocument(ready.body, api.ingestDeps);
    const deleted = await processingDocument();
    expect((await api.request(owner.apiKey, 'DELETE', `/knowledge-bases/${deleted.kbId}/documents/${deleted.docId}`)).status).toBe(200);
    const { deps, logs } = deadLetterDeps();

    // Act
    await failAbandonedDocument(ready.body, deps);
    await failAbandonedDocument(deleted.body, deps);
    await failAbandonedDocument('{"business_id": "x"}', deps);

    // Assert
    expect(await documentOf(ready.kbId, ready.docId)).toMatchObject({ status: 'ready', failure_reason: null, chunk_count: 1 });
    expect((await api.request(owner.apiKey, 'GET', `/knowledge-bases/${deleted.kbId}/documents/${deleted.docId}`)).status).toBe(404);
    expect(logs.messages()).toEqual(['knowledge dead letters: a malformed message was dropped']);
  });
});

describe('the dead-letter function', () => {
  it('reports back only the record whose write failed, and marks the others failed', async () => {
    // Arrange
    const repo = new FailingFinishRepository(harness.core.db);
    const first = await processingDocument();
    const second = await processingDocument();
    repo.failFor = second.docId;
    const { deps } = deadLetterDeps(repo);

    // Act
    const result = await handleDeadLetters(
      {
        Records: [
          { messageId: 'm1', body: first.body },
          { messageId: 'm2', body: second.body },
        ],
      },
      deps,
    );

    // Assert
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
    expect((await documentOf(first.kbId, first.docId)).status).toBe('failed');
    expect((await documentOf(second.kbId, second.docId)).status).toBe('processing');
  });
});

describe('the local stack', () => {
  it("gives a document up after the queue's receives and marks it failed through the DLQ poller", async () => {
    // Arrange: the dev stack's queues (a DLQ after 3 receives), ingestion against a table that
    // refuses chunk writes, retries at once (the real delay is 60 s, doubling)
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `ingest-dlq-${randomUUID()}` }));
    const dlqArn = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }));
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: `ingest-${randomUUID()}`,
        Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn.Attributes!.QueueArn, maxReceiveCount: 3 }) },
      }),
    );
    const refusing = new RefusingRepository(harness.core.db);
    const sqsApi = knowledgeApi(harness, openai, { queue: new SqsIngestQueue(sqs, queue.QueueUrl!), repo: refusing });
    const logs = captureLogger();
    const retries: number[] = [];
    const ingesting = pollIngestQueue(
      sqs,
      queue.QueueUrl!,
      (body) => ingestDocument(body, { ...sqsApi.ingestDeps, log: logs.log }),
      logs.log,
      {
        retryDelayS: (receiveCount) => (retries.push(receiveCount), 0),
      },
    );
    const deadLetters = pollDeadLetters(
      sqs,
      dlq.QueueUrl!,
      (body) => failAbandonedDocument(body, { knowledge: refusing, now: () => new Date(), log: logs.log }),
      logs.log,
    );

    try {
      // Act
      const { kbId, docId } = await processingDocument(sqsApi);

      // Assert
      await vi.waitFor(async () => expect((await documentOf(kbId, docId, sqsApi)).status).toBe('failed'), {
        timeout: 20_000,
        interval: 100,
      });
      expect(await documentOf(kbId, docId, sqsApi)).toMatchObject({ failure_reason: GAVE_UP_REASON, chunk_count: 0 });
      expect(refusing.putTries).toBe(3);
      expect(retries).toEqual([1, 2, 3]);
    } finally {
      await Promise.all([ingesting.stop(), deadLetters.stop()]);
    }
  });
});
