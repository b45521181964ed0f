import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KnowledgeIngest } from '../../../infra/constructs/knowledge-ingest';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import type { IngestJob } from '../../../shared/domain/knowledge';
import { createApiHarness, type TenantClient } from '../../support/api-harness';
import { KNOWLEDGE_FIXTURES, knowledgeApi, startFixtureServer } from '../../support/knowledge-harness';
import { blankBombPdf } from '../../support/pdf-bombs';
import { SANDBOX_OPENAI_API_KEY } from '../../../media-service/src/sandbox/openai-auth';

type Json = Record<string, any>;
const json = async (response: Response): Promise<Json> => (await response.json()) as Json;

/**
 * The knowledge function as Lambda runs it: bundled by CDK (esbuild, the parse worker by the
 * afterBundling hook), then its handler imported from the bundle in a Node process of its own and
 * given an SQS batch, against DynamoDB Local and the sandbox OpenAI. The unit infra tests skip
 * bundling; this is the one place the bundle itself runs.
 */
let bundleDir: string;
let outdir: string;
let openai: OpenAiSandboxServer;
let fixtures: Awaited<ReturnType<typeof startFixtureServer>>;
let api: ReturnType<typeof knowledgeApi>;
let owner: TenantClient;
const jobs: IngestJob[] = [];

/** Synthesizes a stack holding only the knowledge function, bundling it for real; its asset directory. */
function bundleKnowledgeFunction(): string {
  const app = new App({ outdir });
  const stack = new Stack(app, 'KnowledgeBundle', { env: { account: '123456789012', region: 'eu-west-1' } });
  new KnowledgeIngest(stack, 'Knowledge', {
    queueName: 'knowledge-ingest',
    tableName: 'table',
    openAiSecret: new Secret(stack, 'OpenAi'),
    logRetention: RetentionDays.ONE_DAY,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const assembly = app.synth();
  const assets = readdirSync(assembly.directory).map((name) => join(assembly.directory, name));
  return assets.find((dir) => existsSync(join(dir, 'index.mjs')))!;
}

/** Runs the bundled handler on one SQS batch in a child process with the Lambda's environment. */
async function invokeBundle(records: { messageId: string; body: string }[]): Promise<Json> {
  const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(join(bundleDir, 'index.mjs')).href)});
process.stdout.write('\\n' + JSON.stringify(await handler({ Records: ${JSON.stringify(records)} })));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--enable-source-maps', '-e', script], {
    env: {
      PATH: process.env.PATH,
      TABLE_NAME: inject('tableName'),
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamoEndpoint'),
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      OPENAI_API_KEY: SANDBOX_OPENAI_API_KEY,
      OPENAI_BASE_URL: openai.baseUrl,
      ALLOW_PRIVATE_URLS: 'true',
      REQUIRE_HTTPS_URLS: 'false',
      LOG_LEVEL: 'WARN',
    },
    maxBuffer: 16 * 1024 * 1024,
    // The process must end by itself: an idle parse worker keeps nothing alive.
    timeout: 60_000,
  });
  // The function's log lines share stdout; the result is the last line.
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Json;
}

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'knowledge-bundle-'));
  bundleDir = bundleKnowledgeFunction();
  openai = await OpenAiSandboxServer.start();
  fixtures = await startFixtureServer({ 'blank.pdf': { contentType: 'application/pdf', body: blankBombPdf(300) } });
  const harness = await createApiHarness({ allowPrivateUrls: true });
  api = knowledgeApi(harness, openai, { queue: { enqueue: async (job) => void jobs.push(job) } });
  owner = await harness.newTenant({ numbers: 0 });
}, 300_000);

afterAll(async () => {
  await fixtures?.close();
  await openai?.close();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('the bundled knowledge function', () => {
  it('ships the parse worker beside the handler', () => {
    expect(readdirSync(bundleDir).sort()).toEqual(['index.mjs', 'index.mjs.map', 'parse-worker.mjs', 'parse-worker.mjs.map']);
    // The handler's bundle leaves the parsers to the worker's.
    expect(readFileSync(join(bundleDir, 'index.mjs'), 'utf8')).not.toContain('PDFDocumentProxy');
  });

  it('reads a page, a PDF and a text in its worker, and fails a PDF bomb alone at 256 MB', async () => {
    // Arrange
    const call = (method: string, path: string, body?: unknown) => api.request(owner.apiKey, method, path, body);
    const kb = await json(await call('POST', '/knowledge-bases', { name: 'Clinic' }));
    const bodies = [
      { name: 'About us', url: `${fixtures.url}/about.html` },
      { name: 'Blank bomb', url: `${fixtures.url}/blank.pdf` },
      { name: 'Policies', url: `${fixtures.url}/policies.pdf` },
      { name: 'FAQ', text: readFileSync(join(KNOWLEDGE_FIXTURES, 'faq.md'), 'utf8') },
    ];
    const created = [];
    for (const body of bodies) created.push(await json(await call('POST', `/knowledge-bases/${kb.id}/documents`, body)));
    // Act
    const result = await invokeBundle(jobs.map((job, i) => ({ messageId: `m${i}`, body: JSON.stringify(job) })));
    const documents = await Promise.all(
      created.map(async (doc) => json(await call('GET', `/knowledge-bases/${kb.id}/documents/${doc.id}`))),
    );
    // Assert
    expect(result).toEqual({ batchItemFailures: [] });
    const ready = { status: 'ready', chunk_count: expect.any(Number) };
    expect(documents).toMatchObject([
      ready,
      // The memory bound, or on a starved machine (two test runs at once on 2 cores) the 20 s time
      // bound, whichever the bomb meets first: either way it fails alone and the rest are read.
      {
        status: 'failed',
        failure_reason: expect.stringMatching(/^the PDF (needed more than 256 MB|took longer than 20 s) to read$/),
        chunk_count: 0,
      },
      ready,
      ready,
    ]);
  }, 120_000);
});
