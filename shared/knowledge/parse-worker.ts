/**
 * The parse worker's entry (a `node:worker_threads` Worker started by worker-parser.ts): reads
 * one document at a time as the parent posts them. Nothing here bounds anything; the parent does,
 * from outside (heap limits, a memory watch, a deadline, `terminate()`), because a parse that
 * never yields cannot police itself. The Lambda bundles this file on its own, beside the
 * function's bundle (infra/constructs/knowledge-ingest.ts); tsx runs it as is.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readDocument, type DocumentSource, type ParsedDocument } from './extract';

/** What the parent posts: one document to read. */
export interface ParseRequest {
  id: number;
  source: DocumentSource;
}

/** What the worker posts: `ready` once its modules are loaded, then one reply per request. */
export type ParseReply = { ready: true } | { id: number; document: ParsedDocument } | { id: number; error: string };

/** The worker's `workerData`. */
export interface ParseWorkerData {
  /** A module whose `readDocument` runs instead of the real one: the tests' hostile readers. */
  readerUrl?: string;
}

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs as a worker thread (worker-parser.ts starts it)');
const { readerUrl } = (workerData ?? {}) as ParseWorkerData;
const read: typeof readDocument = readerUrl
  ? ((await import(readerUrl)) as { readDocument: typeof readDocument }).readDocument
  : readDocument;

port.on('message', async ({ id, source }: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id, document: await read(source) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies ParseReply);
