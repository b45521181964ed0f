import type { KnowledgeRepository } from '../db/knowledge-repository';
import { parseIngestJob } from '../domain/knowledge';
import type { Logger } from '../log';
import { GAVE_UP_REASON } from './failure-reasons';

/** What the dead-letter handler needs: the table, a clock and a log (no OpenAI key, no network). */
export interface DeadLetterDeps {
  knowledge: KnowledgeRepository;
  now: () => Date;
  log: Logger;
}

/**
 * Consumes a message the ingestion queue gave up on (its handler threw on every receive: an
 * embeddings outage, DynamoDB refusing writes): the document, if still `processing`, ends
 * `failed` with {@link GAVE_UP_REASON}, so it no longer waits for good and no longer counts as
 * work in progress. Chunks a failed try may have left are removed first (search never read them:
 * the document was not `ready`). Idempotent: a document deleted or finished meanwhile is left alone,
 * so a message redelivered, or redriven to the work queue by hand, is harmless.
 * Throws only when DynamoDB fails, so the dead-letter queue delivers it again.
 */
export async function failAbandonedDocument(body: string, deps: DeadLetterDeps): Promise<void> {
  const job = parseIngestJob(body);
  if (!job) return deps.log.error('knowledge dead letters: a malformed message was dropped');
  const { business_id: businessId, knowledge_base_id: kbId, document_id: docId } = job;
  const doc = await deps.knowledge.findDocument(businessId, kbId, docId, true);
  if (!doc || doc.status !== 'processing') return;
  await deps.knowledge.deleteChunks(businessId, kbId, docId);
  const result = await deps.knowledge.finishDocument(businessId, doc, {
    status: 'failed',
    failure_reason: GAVE_UP_REASON,
    chunk_count: 0,
    characters: 0,
    truncated: false,
    updated_at: deps.now().toISOString(),
  });
  // An error line on purpose: each one is a document a business lost to our failure.
  if (result.kind === 'finished')
    deps.log.error('knowledge ingestion gave up on a document after every retry; it is marked failed', {
      business_id: businessId,
      knowledge_base_id: kbId,
      document_id: docId,
    });
}
