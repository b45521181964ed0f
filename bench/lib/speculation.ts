import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdminService } from '../../functions/lib/deps';
import { askAndHear } from '../../media-service/src/sandbox/scenarios';
import { loggerOver, type LogFields } from '../../shared/log';
import { startLocalInfra } from '../../scripts/local/infra';
import { startLocalStack, type LocalStack } from '../../scripts/local/stack';
import { KNOWLEDGE_FIXTURES, startFixtureServer } from '../../test/support/knowledge-harness';

/**
 * Speculative retrieval over whole sandbox calls (`npm run bench:knowledge`, last part): the local
 * stack as `npm run dev` builds it (API, ingestion queue, call engine, sandbox carrier, Flux, Aura
 * and OpenAI), a base of the shipped fixtures (two text documents, a web page and a PDF fetched
 * by URL), and simulated callers who each ask one question of it (the `ask` scenario's shape, with
 * ten questions in turn). Each of the model's `search_knowledge` calls logs `call.knowledge.search`
 * with `speculative` (ready / pending / missed) and `wait_ms` (how long the model's call waited
 * for passages); this reads them from the call engine's logger.
 */

/** How fast the sandbox model and embeddings answer during one run, and whether the model speaks before its tool calls. */
export interface SpeculationProfile {
  label: string;
  ttftMs: number;
  tokenIntervalMs: number;
  embeddingsDelayMs: number;
  /** "Let me check that for you." before `search_knowledge` (the sandbox model's way), played before the search is asked. */
  preambles: boolean;
}

/** Questions only the fixtures answer, none of which asks for another tool (so the model searches). */
const QUESTIONS = [
  'Hi, how much does teeth whitening cost?',
  'Hi, what is your cancellation policy?',
  'When are you open on Saturdays?',
  'Is there somewhere to park?',
  'Do you take cheques or credit cards?',
  'Which languages do your staff speak?',
  'Who can fit me with braces?',
  'What should a new patient bring along?',
  'Which insurance do you bill directly?',
  'Who founded the clinic?',
];

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(1)} ms`);
const share = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

/** The bench business: a base of the fixtures (ready), an assistant using it, one number per question. */
async function seed(stack: LocalStack, fixturesUrl: string) {
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness('Bench knowledge', 1_000_000);
  await admin.setMaxConcurrentCalls(business.business_id, 200);
  await admin.addNumber(business.business_id, { number: '+15550300000', provider: 'sandbox', assistantId: null, label: '' });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${business.api_key}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, any>;
  };
  const kb = await api('POST', '/knowledge-bases', { name: 'Clinic' });
  const text = (file: string) => readFileSync(join(KNOWLEDGE_FIXTURES, file), 'utf8');
  for (const document of [
    { name: 'Prices', text: text('services.txt') },
    { name: 'FAQ', text: text('faq.md') },
    { name: 'About us', url: `${fixturesUrl}/about.html` },
    { name: 'Policies', url: `${fixturesUrl}/policies.pdf` },
  ])
    await api('POST', `/knowledge-bases/${kb.id}/documents`, document);
  for (let tries = 0; ; tries++) {
    const documents = (await api('GET', `/knowledge-bases/${kb.id}/documents`)).data as { name: string; status: string }[];
    if (documents.every((doc) => doc.status === 'ready')) break;
    if (tries > 60 || documents.some((doc) => doc.status === 'failed')) throw new Error(`ingestion: ${JSON.stringify(documents)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const assistant = await api('POST', '/assistants', {
    name: 'Bench front desk',
    template: 'receptionist',
    config: { first_message: 'Hello, Harbor Dental.', knowledge_ids: [kb.id], advanced: { recording_notice: false, ai_disclosure: false } },
  });
  const numbers = QUESTIONS.map((question, i) => {
    const number = `+1555031${String(i).padStart(4, '0')}`;
    stack.media.carrier.registerScenario(number, askAndHear(`bench ask ${i}`, [question], question));
    return number;
  });
  return { businessId: business.business_id, assistantId: assistant.id as number, numbers, api };
}

/** Places `calls` calls, `concurrency` at a time, each to the next question's number; resolves with their ids once all ended. */
async function runCalls(stack: LocalStack, bench: Awaited<ReturnType<typeof seed>>, calls: number, concurrency: number) {
  const ids: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      const to = bench.numbers[next++ % bench.numbers.length]!;
      const { id } = await bench.api('POST', '/calls', { assistant_id: bench.assistantId, to });
      ids.push(id);
      const deadline = Date.now() + 120_000;
      for (;;) {
        const found = await stack.core.callRepo.findCall(bench.businessId, id, Math.floor(Date.now() / 1000));
        if (found?.call.status === 'ended') break;
        if (Date.now() > deadline) throw new Error(`call ${id} did not end within 2 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

/** One profile's numbers from the `call.knowledge.search` lines of its calls. */
function report(profile: SpeculationProfile, ids: number[], searches: LogFields[], embeddings: number, seconds: number): void {
  const mine = new Set(ids);
  const lines = searches.filter((line) => mine.has(line.call_id as number));
  const kinds = (kind: string) => lines.filter((line) => line.speculative === kind);
  const waits = (rows: LogFields[]) => rows.map((line) => line.wait_ms as number);
  const [ready, pending, missed] = [kinds('ready'), kinds('pending'), kinds('missed')];
  const searched = new Set(lines.map((line) => line.call_id)).size;
  console.log(
    `  ${profile.label}: ${ids.length} calls in ${seconds.toFixed(0)} s, ${lines.length} searches by the model (${searched} calls searched)`,
  );
  console.log(
    `    ready when the model asked: ${ready.length} (${share(ready.length, lines.length)}); pending (awaited): ${pending.length}; missed (fresh search): ${missed.length}`,
  );
  console.log(
    `    speculative passages used: ${ready.length + pending.length} of ${lines.length} searches; embedding requests per call: ${(embeddings / Math.max(1, ids.length)).toFixed(2)} (every caller turn is searched, the goodbye too)`,
  );
  const notReady = waits([...pending, ...missed]);
  console.log(
    `    the model's wait for passages: ready p50 ${ms(pct(waits(ready), 50))}, p95 ${ms(pct(waits(ready), 95))}; not ready p50 ${ms(pct(notReady, 50))}, p95 ${ms(pct(notReady, 95))} (n=${notReady.length})`,
  );
}

/**
 * Runs `calls` sandbox calls per profile on a local stack of its own (DynamoDB Local in a temp
 * folder, fauxqs), and prints the ready rate, the passages used and the wait when not ready.
 */
export async function measureSpeculation(options: { calls: number; concurrency: number; profiles: SpeculationProfile[] }): Promise<void> {
  process.env.LOG_LEVEL ??= 'WARN'; // the after-call and ingestion loggers: their INFO lines are not the report
  const searches: LogFields[] = [];
  const problems: string[] = [];
  const mediaLog = loggerOver((level, message, fields) => {
    if (message === 'call.knowledge.search') searches.push(fields);
    else if ((level === 'WARN' || level === 'ERROR') && problems.length < 5) problems.push(`${level} ${message}`);
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-knowledge-'));
  const home = process.cwd();
  process.chdir(dataDir); // the infra helpers keep DynamoDB Local's data under ./.data
  const infra = await startLocalInfra({ benchmark: true }).finally(() => process.chdir(home));
  const fixtures = await startFixtureServer();
  const stack = await startLocalStack({ apiPort: 0, mediaPort: 0, mediaTasks: 1, infra: infra.info, mediaLog });
  try {
    const bench = await seed(stack, fixtures.url);
    const openai = stack.afterCall.llmSandbox!;
    console.log(
      `  speculative retrieval over whole sandbox calls (${options.calls} calls a profile, ${options.concurrency} at a time, ${QUESTIONS.length} questions in turn):`,
    );
    for (const profile of options.profiles) {
      openai.setTiming({ ttftMs: profile.ttftMs, tokenIntervalMs: profile.tokenIntervalMs, embeddingsDelayMs: profile.embeddingsDelayMs });
      openai.script.preambles = profile.preambles;
      const embeddingsBefore = openai.embeddingRequests;
      const started = performance.now();
      const ids = await runCalls(stack, bench, options.calls, options.concurrency);
      report(profile, ids, searches, openai.embeddingRequests - embeddingsBefore, (performance.now() - started) / 1000);
    }
    if (problems.length > 0) console.log(`    call engine warnings (first ${problems.length}): ${problems.join('; ')}`);
  } finally {
    await stack.stop();
    await fixtures.close();
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
