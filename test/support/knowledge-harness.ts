import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../functions/api/app';
import { OpenAiSandboxServer } from '../../media-service/src/sandbox/openai-server';
import { KnowledgeRepository } from '../../shared/db/knowledge-repository';
import { OpenAiEmbedder } from '../../shared/llm/embeddings-client';
import { KnowledgeSearcher } from '../../shared/knowledge/index-cache';
import { ingestDocument, type IngestDeps } from '../../shared/knowledge/ingest';
import type { DocumentParser } from '../../shared/knowledge/worker-parser';
import { InProcessIngestQueue, type IngestQueue } from '../../shared/queue/knowledge-ingest';
import type { LookupAll } from '../../shared/security/ssrf';
import { KnowledgeService } from '../../shared/services/knowledge-service';
import type { ApiHarness } from './api-harness';
import { SANDBOX_OPENAI_API_KEY } from '../../media-service/src/sandbox/openai-auth';

/** The knowledge fixtures shipped with the tests. */
export const KNOWLEDGE_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'knowledge');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.pdf': 'application/pdf',
  '.md': 'text/markdown',
  '.txt': 'text/plain',
};

/** A body the fixture server serves besides the files. */
export interface ServedBody {
  contentType: string;
  body: string | Uint8Array;
}

/**
 * A loopback server of the fixture files (`/about.html`, `/policies.pdf`, …), a 302 at `/moved`,
 * and any `extra` bodies by name (`{'loop.html': …}` at `/loop.html`).
 */
export async function startFixtureServer(extra: Record<string, ServedBody> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (name === 'moved') return void res.writeHead(302, { location: '/about.html' }).end();
    const served = Object.hasOwn(extra, name) ? extra[name] : undefined;
    if (served) return void res.writeHead(200, { 'content-type': served.contentType }).end(served.body);
    if (!/^[a-z-]+\.(html|pdf|md|txt)$/.test(name)) return void res.writeHead(404).end();
    try {
      const body = readFileSync(join(KNOWLEDGE_FIXTURES, name));
      res.writeHead(200, { 'content-type': CONTENT_TYPES[name.slice(name.lastIndexOf('.'))]! }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The API of a harness with knowledge bases wired to the sandbox OpenAI's embeddings and an
 * in-process ingestion queue (the same handler the queue's function runs), so a test can wait
 * for ingestion with `idle()`; or `queue` instead, to ingest the jobs elsewhere; `repo` to watch or
 * bend the repository's writes (a subclass).
 */
export function knowledgeApi(
  harness: ApiHarness,
  openai: OpenAiSandboxServer,
  options: { lookup?: LookupAll; parser?: DocumentParser; queue?: IngestQueue; repo?: KnowledgeRepository } = {},
) {
  const embedder = new OpenAiEmbedder({ apiKey: SANDBOX_OPENAI_API_KEY, baseURL: openai.baseUrl });
  const repo = options.repo ?? new KnowledgeRepository(harness.core.db);
  const searcher = new KnowledgeSearcher(repo, embedder);
  const ingestDeps: IngestDeps = {
    knowledge: repo,
    embedder,
    urlPolicy: harness.core.urlPolicy,
    now: () => new Date(),
    log: harness.logs.log,
    ...(options.lookup && { lookup: options.lookup }),
    ...(options.parser && { parser: options.parser }),
  };
  const inProcess = new InProcessIngestQueue((body) => ingestDocument(body, ingestDeps), harness.logs.log);
  const queue = options.queue ?? inProcess;
  const service = new KnowledgeService({
    knowledge: repo,
    ids: harness.core.ids,
    urlPolicy: harness.core.urlPolicy,
    queue,
    searcher,
    now: () => new Date(),
    cursors: harness.core.cursors,
  });
  const app = createApp({ ...harness.deps, knowledge: service });
  return {
    /** The API itself, to serve on loopback. */
    app,
    repo,
    searcher,
    /** What its ingestion handler runs with (a test can run `ingestDocument` itself). */
    ingestDeps,
    idle: () => inProcess.idle(),
    request(apiKey: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
      return Promise.resolve(
        app.request(`/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${apiKey}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    },
  };
}
