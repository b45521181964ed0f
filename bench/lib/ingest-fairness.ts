import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { processingDocument } from '../../shared/domain/knowledge';
import { ingestDocument, type IngestDeps } from '../../shared/knowledge/ingest';
import { pollIngestQueue, SqsIngestQueue, type IngestPollLimits } from '../../shared/queue/knowledge-ingest';
import { startFauxqsServer } from '../../scripts/local/stand-ins/fauxqs';

const SLOW_DOCUMENTS = 10;

/**
 * Fairness of local ingestion (the attack it answers: 10 slow pages of business A made business
 * B's 30-character text wait 333 s): business A queues 10 URL documents on a server that dribbles
 * a byte every 500 ms and never ends (each holds a slot until the 15 s fetch timeout), then
 * business B queues one short text. Prints B's time from queued to ready through fauxqs and the
 * same poller as `npm run dev`: with its defaults (4 at once, 1 a business), and with one slot,
 * where B waits for the page being fetched (the bound: about one document's time).
 */
export async function measureIngestFairness(repo: KnowledgeRepository, deps: IngestDeps): Promise<void> {
  const fauxqs = await startFauxqsServer();
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: fauxqs.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await scenario(repo, deps, sqs, {}, [2, 3], '4 at once, 1 a business');
    await scenario(repo, deps, sqs, { maxInFlight: 1 }, [4, 5], '1 at once');
  } finally {
    await fauxqs.stop();
  }
}

async function scenario(
  repo: KnowledgeRepository,
  deps: IngestDeps,
  sqs: SQSClient,
  limits: IngestPollLimits,
  [a, b]: [number, number],
  label: string,
): Promise<void> {
  const dribbling = new Set<ServerResponse>();
  const server = createServer((_request, response) => {
    dribbling.add(response);
    response.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => response.write('<p>a</p>'), 500);
    response.on('close', () => (clearInterval(timer), dribbling.delete(response)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const slowUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({ QueueName: `bench-knowledge-ingest-${a}`, Attributes: { VisibilityTimeout: '120' } }),
  );
  const queue = new SqsIngestQueue(sqs, QueueUrl!);
  const poller = pollIngestQueue(sqs, QueueUrl!, (body) => ingestDocument(body, deps), deps.log, limits);
  try {
    const now = new Date().toISOString();
    for (const business of [a, b]) {
      await repo.insertBase(business, { id: 1, name: 'Bench', description: '', created_at: now, updated_at: now, version: 0 });
    }
    for (let d = 1; d <= SLOW_DOCUMENTS; d++) {
      await repo.insertDocument(a, processingDocument({ id: d, knowledgeBaseId: 1, name: `Slow ${d}`, url: slowUrl, now }), undefined);
      await queue.enqueue({ business_id: a, knowledge_base_id: 1, document_id: d });
    }
    await repo.insertDocument(
      b,
      processingDocument({ id: 1, knowledgeBaseId: 1, name: 'Hours', url: null, now }),
      'We open at nine every day.',
    );
    const queued = performance.now();
    await queue.enqueue({ business_id: b, knowledge_base_id: 1, document_id: 1 });
    while ((await repo.findDocument(b, 1, 1))?.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - queued) / 1000;
    const failedA = (await repo.listDocuments(a, 1)).filter((doc) => doc.status === 'failed').length;
    console.log(
      `  fairness (local poller, ${label}): B's text ready ${seconds.toFixed(2)} s after queueing, behind A's ${SLOW_DOCUMENTS} dribbling pages (${failedA} of them timed out meanwhile)`,
    );
  } finally {
    for (const response of dribbling) response.destroy();
    await poller.stop();
    server.close();
  }
}
