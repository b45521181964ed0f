import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { createSweeper } from '../functions/sweeper/deps';
import { createDb } from '../shared/db/client';
import { CallRepository } from '../shared/db/call-repository';
import { countOpenCalls } from '../shared/db/open-calls';
import { BusinessRepository } from '../shared/db/business-repository';
import { keys, GSI1 } from '../shared/db/table';
import { silentLogger } from '../shared/log';
import { SqsOutboundCallQueue } from '../shared/queue/outbound-calls';
import { outboundCallRecord } from '../test/support/call-states';
import type { LocalStackInfo } from '../scripts/local/infra';
import { ensureTable } from '../shared/db/create-table';
import { startDynamoDbLocal } from '../scripts/local/stand-ins/dynamodb-local';
import { startFauxqsServer } from '../scripts/local/stand-ins/fauxqs';
import { startDialler, type DiallerReport } from './lib/scale-dialler';
import { benchBusiness, loadHistory, writeItems } from './lib/scale-history';
import { measurePacing, startPacingProcess, type PacingWindow } from './lib/scale-pacing';
import { addOpenCalls, measureSweep, tallyRequests, type SweepCost } from './lib/scale-sweep';
import { runAdmission, seedAdmissionCalls, type AdmissionLoad, type AdmissionRun } from './lib/scale-admission';

/**
 * `npm run bench:scale`: the platform at its target size, on DynamoDB Local (docs/scaling.md).
 * 10,000 businesses with 30 days of call history; one sweeper pass with 0 to 5,000 open calls
 * (items read, read units, CPU, wall time); pacing on a call-engine process while the sweeper runs
 * against without it (and with the sweep on the audio thread, as it used to run); one business at
 * its cap of 300 with 1,000 calls waiting across two dialler processes (`BENCH_DIALLERS`) and the sweeper running
 * as deployed (starts per second, transaction conflicts and transient failures retried, calls
 * ended `error`, calls left open, live_calls and reserved minutes left); and the start rate one
 * business's item allows, admission alone (bench/lib/scale-admission.ts). Prints numbers; asserts
 * nothing. `BENCH_PARTS=cap` runs the cap part alone (no history, sweep or pacing).
 */

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const BUSINESSES = env('BENCH_BUSINESSES', 10_000);
const DAYS = env('BENCH_DAYS', 30);
const CALLS_PER_DAY = env('BENCH_CALLS_PER_DAY', 1);
const OPEN_STEPS = (process.env.BENCH_OPEN_CALLS ?? '0,100,1000,5000').split(',').map(Number);
const PACING_CALLS = env('BENCH_PACING_CALLS', 100);
const PACING_MS = env('BENCH_PACING_MS', 10_000);
const CAP = env('BENCH_CAP', 300);
const WAITING = env('BENCH_WAITING', 1000);
const HOLD_MS = env('BENCH_HOLD_MS', 20_000);
/** Call-engine processes dialling the cap run's calls (each the real consumer and dialler). */
const DIALLERS = env('BENCH_DIALLERS', 2);
/** How long the cap run may take before it stops and reports what is left open. */
const CAP_TIMEOUT_S = env('BENCH_CAP_TIMEOUT_S', 20 * 60);
/** Which parts run (comma list of history, sweep, pacing, cap, admission); e.g. `BENCH_PARTS=cap` for the cap run alone. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'history,sweep,pacing,cap,admission').split(','));
/**
 * The admission runs, each `backlog+rate×seconds` (calls waiting at once, then new calls a second for
 * that many seconds): 50 and 100 starts a second with nobody waiting, 1,000 and 3,000 waiting at once,
 * and 3,000 waiting with 50 new calls a second arriving.
 */
const ADMISSION_RUNS = (process.env.BENCH_ADMISSION ?? '0+50x30,0+100x20,1000+0x0,3000+0x0,3000+50x30').split(',').map((spec) => {
  const [backlog, rate, seconds] = spec.split(/[+x]/).map(Number);
  return { backlog: backlog!, rate: rate!, seconds: seconds! };
});
/**
 * How long an admitted call holds its slot in the admission runs (±50 %): at the cap of 300, 2 s allows
 * 150 starts a second, so the cap is not what limits the rate.
 */
const ADMIT_HOLD_MS = env('BENCH_ADMIT_HOLD_MS', 2000);
/** Stand-in tasks for the admission runs, each with its own DynamoDB client and 10 admissions at once (a receive). */
const ADMIT_TASKS = env('BENCH_ADMIT_TASKS', 20);
const ADMISSION_CALL_IDS = 980_000_000;
const OPEN_CALL_IDS = 900_000_000;
const CAMPAIGN_CALL_IDS = 950_000_000;

const row = (label: string, value: string) => console.log(`  ${label.padEnd(58)} ${value}`);
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function sweeps(info: LocalStackInfo) {
  const db = createDb({ tableName: info.tableName, region: info.region, endpoint: info.dynamoEndpoint });
  const tally = tallyRequests(db);
  const calls = new CallRepository(db);
  const sweeper = createSweeper({
    db,
    events: { publish: async () => undefined },
    queue: { enqueue: async () => undefined },
    log: silentLogger,
  });
  console.log('\nOne sweeper pass (median of 3), by open calls:');
  let open = 0;
  for (const target of OPEN_STEPS) {
    await addOpenCalls(db, calls, OPEN_CALL_IDS + open, target - open, Math.min(BUSINESSES, 2000), new Date());
    open = target;
    await measureSweep(sweeper, tally); // warm
    const runs: SweepCost[] = [];
    for (let i = 0; i < 3; i++) runs.push(await measureSweep(sweeper, tally));
    const cost = runs.sort((a, b) => a.wallMs - b.wallMs)[1]!;
    row(
      `${cost.open} open`,
      `${cost.requests} requests, ${cost.items} items read, ${cost.readUnits.toFixed(1)} RCU, CPU ${ms(cost.cpuMs)}, wall ${ms(cost.wallMs)}`,
    );
  }
  return sweeper;
}

async function pacing(sweeper: ReturnType<typeof createSweeper>) {
  console.log(`\nPacing: shared 10 ms tick lateness, ${PACING_CALLS} pacers, ${PACING_MS / 1000} s windows:`);
  const engine = startPacingProcess();
  const show = (label: string, window: PacingWindow) =>
    row(label, `p99 ${ms(window.p99Ms)}, max ${ms(window.maxMs)} (${window.ticks} ticks)`);
  try {
    show('call-engine process, no sweeper', await engine.measure(PACING_CALLS, PACING_MS));
    let sweeping = true;
    let passes = 0;
    const loop = (async () => {
      while (sweeping) {
        await sweeper.sweepOnce();
        passes++;
      }
    })();
    show('call-engine process, sweeper sweeping back to back elsewhere', await engine.measure(PACING_CALLS, PACING_MS));
    show('sweeper on the audio thread (the old placement)', await measurePacing(PACING_CALLS, PACING_MS));
    sweeping = false;
    await loop;
    row('sweeper passes during the two sweeping windows', String(passes));
  } finally {
    engine.stop();
  }
}

async function campaign(info: LocalStackInfo) {
  const db = createDb({ tableName: info.tableName, region: info.region, endpoint: info.dynamoEndpoint });
  const businessId = BUSINESSES + 1;
  await new BusinessRepository(db).putBusiness(benchBusiness(businessId, CAP, 10_000_000, new Date().toISOString()));
  const calls = new CallRepository(db);
  const at = new Date().toISOString();
  const queued = Array.from({ length: WAITING }, (_, i) => outboundCallRecord(CAMPAIGN_CALL_IDS + i, businessId, at));
  await writeItems(
    db,
    queued.flatMap((record) => calls.newCallItems(record).map((put) => put.Put.Item)),
  );
  const sqs = new SQSClient({
    region: info.region,
    endpoint: info.sqsEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queue = new SqsOutboundCallQueue(sqs, info.outboundQueueUrl);
  await Promise.all(Array.from({ length: WAITING }, (_, i) => queue.enqueue({ business_id: businessId, call_id: CAMPAIGN_CALL_IDS + i })));
  console.log(
    `\nOne business at its cap of ${CAP}, ${WAITING} calls queued at once, ${DIALLERS} dialler processes, calls held ${HOLD_MS / 1000} s ±50 %:`,
  );
  const started = Date.now();
  const settings = {
    tableName: info.tableName,
    dynamoEndpoint: info.dynamoEndpoint,
    sqsEndpoint: info.sqsEndpoint,
    queueUrl: info.outboundQueueUrl,
    holdMs: HOLD_MS,
  };
  const diallers = Array.from({ length: DIALLERS }, (_, i) => startDialler({ ...settings, owner: `task-${i + 1}` }));
  const sweeps = runSweeper(db, queue);
  const businesses = new BusinessRepository(db);
  let mostLive = 0;
  let samples = 0;
  let open: number;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const business = await businesses.getBusiness(businessId);
    mostLive = Math.max(mostLive, business.live_calls ?? 0);
    open = (
      await Promise.all((['queued', 'ringing', 'in_progress', 'ended'] as const).map((status) => countOpenCalls(db, businessId, status)))
    ).reduce((a, b) => a + b, 0);
    if (++samples % 15 === 0)
      console.log(`    ${Math.round((Date.now() - started) / 1000)} s: ${business.live_calls ?? 0} live, ${open} open`);
    if (open === 0 || Date.now() - started > CAP_TIMEOUT_S * 1000) break;
  }
  const swept = await sweeps.stop();
  const reports = await Promise.all(diallers.map((dialler) => dialler.stop()));
  const business = await businesses.getBusiness(businessId);
  const reasons = await endedReasons(info, businessId);
  printCampaign({ started, reports, swept, mostLive, open, reasons, left: business });
}

/** The start rate one business's item allows: each run on a business of its own, at the cap {@link CAP}. */
async function admissions(info: LocalStackInfo) {
  const db = createDb({ tableName: info.tableName, region: info.region, endpoint: info.dynamoEndpoint });
  const businesses = new BusinessRepository(db);
  console.log(
    `\nAdmission alone (plain read + one transaction to start, one to give back), one business at a cap of ${CAP}, ` +
      `calls held ${ADMIT_HOLD_MS / 1000} s ±50 %, ${ADMIT_TASKS} tasks of 10 admissions at once:`,
  );
  let firstCallId = ADMISSION_CALL_IDS;
  // A first, unreported run warms DynamoDB Local's JVM (the first run measured was twice as slow as later ones).
  const warmUp = { backlog: 0, rate: 20, seconds: 10 };
  for (const [index, shape] of [warmUp, ...ADMISSION_RUNS].entries()) {
    const load: AdmissionLoad = {
      ...shape,
      businessId: BUSINESSES + 2 + index,
      firstCallId,
      holdMs: ADMIT_HOLD_MS,
      tasks: ADMIT_TASKS,
      inFlight: 10,
    };
    firstCallId += load.backlog + load.rate * load.seconds;
    await businesses.putBusiness(benchBusiness(load.businessId, CAP, 10_000_000, new Date().toISOString()));
    await seedAdmissionCalls(db, new CallRepository(db), load);
    const run = await runAdmission(() => createDb({ tableName: info.tableName, region: info.region, endpoint: info.dynamoEndpoint }), load);
    const left = await businesses.getBusiness(load.businessId);
    if (shape !== warmUp) printAdmission(load, run, left);
  }
}

/** One admission run's line: the rate reached, the admission latency, retries and what was left. */
function printAdmission(load: AdmissionLoad, run: AdmissionRun, left: { live_calls?: number; minutes_reserved: number }) {
  const label = [
    load.backlog > 0 ? `${load.backlog} waiting at once` : '',
    load.rate > 0 ? `${load.rate} new calls/s for ${load.seconds} s` : '',
  ]
    .filter(Boolean)
    .join(', then ');
  const perSecond = new Map<number, number>();
  for (const at of run.startsAtMs) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
  const lastS = (run.startsAtMs.at(-1) ?? 0) / 1000;
  const sorted = [...run.admitMs].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  // The middle 80 % of the starts: the rate held, without the first fill and the tail of calls still backing off.
  const from = run.startsAtMs[Math.floor(run.started * 0.1)] ?? 0;
  const to = run.startsAtMs[Math.floor(run.started * 0.9)] ?? 0;
  const held = (run.started * 0.8) / Math.max((to - from) / 1000, 0.001);
  row(
    label,
    `${run.started}/${run.calls} started in ${lastS.toFixed(1)} s: ${held.toFixed(1)}/s held over the middle 80 %, ` +
      `busiest second ${Math.max(0, ...perSecond.values())}`,
  );
  row('  admission p50 / p95 / p99', `${ms(pct(50))} / ${ms(pct(95))} / ${ms(pct(99))}`);
  row(
    '  conflicts retried / refused by the read / at-cap waits / errors',
    `${run.conflicts} / ${run.refusedByRead} / ${run.atCap} / ${run.errors}`,
  );
  row('  after: live_calls, minutes_reserved (target 0, 0)', `${left.live_calls ?? 0}, ${left.minutes_reserved}`);
}

/** What the cap run saw, for {@link printCampaign}. */
interface CampaignOutcome {
  started: number;
  reports: DiallerReport[];
  swept: SweepTotals;
  mostLive: number;
  open: number;
  reasons: Record<string, number>;
  left: { live_calls?: number; minutes_reserved: number };
}

/** Prints the cap run: starts, retries, failures by kind, what the sweeper did, and what was left. */
function printCampaign({ started, reports, swept, mostLive, open, reasons, left }: CampaignOutcome) {
  const placed = reports.flatMap((report) => report.placedAt).sort((a, b) => a - b);
  const perSecond = new Map<number, number>();
  for (const at of placed) perSecond.set(Math.floor((at - started) / 1000), (perSecond.get(Math.floor((at - started) / 1000)) ?? 0) + 1);
  const sum = (field: 'conflicts' | 'refusedByRead' | 'deferred' | 'jobErrors' | 'endErrors' | 'transientRetries') =>
    reports.reduce((total, report) => total + report[field], 0);
  row('calls placed', `${placed.length} of ${WAITING} in ${((placed.at(-1)! - started) / 1000).toFixed(1)} s`);
  const burst = Math.min(CAP, placed.length);
  const burstS = (placed[burst - 1]! - started) / 1000;
  row(`first ${burst} starts (the burst up to the cap)`, `${burstS.toFixed(1)} s: ${(burst / burstS).toFixed(1)} starts/s`);
  row('busiest second', `${Math.max(...perSecond.values())} starts`);
  row('transaction conflicts retried (all processes)', String(sum('conflicts')));
  row('transient failures retried (throttles, 500s: lifecycle + admission)', String(sum('transientRetries')));
  row('admissions refused by the plain read (no transaction)', String(sum('refusedByRead')));
  row('deferrals at the cap', String(sum('deferred')));
  row('job errors / endings that threw (after their retries)', `${sum('jobErrors')} / ${sum('endErrors')}`);
  const failures = new Map<string, number>();
  for (const failure of reports.flatMap((report) => report.endFailures)) {
    const kind = failure.replace(/ of call \d+/, '').replace(/ at .*$/, '');
    failures.set(kind, (failures.get(kind) ?? 0) + 1);
  }
  for (const [kind, count] of failures) console.log(`    ${count} × ${kind}`);
  row(
    'sweeper passes (every 60 s, as deployed): finished / ended / errors',
    `${swept.passes}: ${swept.finished} / ${JSON.stringify(swept.ended)} / ${swept.errors}`,
  );
  row('most live calls seen (1 s samples; cap)', `${mostLive} (${CAP})`);
  row('ended reasons', JSON.stringify(reasons));
  row('calls ended `error`', String(reasons.error ?? 0));
  row('calls left open (not ended, or ending unfinished)', String(open));
  row('after: live_calls, minutes_reserved (target 0, 0)', `${left.live_calls ?? 0}, ${left.minutes_reserved}`);
}

/** What the sweeper's passes did during the cap run, summed. */
interface SweepTotals {
  passes: number;
  finished: number;
  errors: number;
  ended: Record<string, number>;
}

/**
 * The deployment's one sweeper (`createSweeper`, default limits), a pass a minute as the scheduled
 * Lambda runs, in this process (the Lambda is a process of its own too). `stop()` waits for a pass
 * under way and sums what the passes did.
 */
function runSweeper(db: ReturnType<typeof createDb>, queue: SqsOutboundCallQueue): { stop(): Promise<SweepTotals> } {
  const sweeper = createSweeper({ db, events: { publish: async () => undefined }, queue, log: silentLogger });
  const total: SweepTotals = { passes: 0, finished: 0, errors: 0, ended: {} };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(async () => {
      const report = await sweeper.sweepOnce().catch(() => undefined);
      total.passes++;
      if (!report) return void total.errors++;
      total.finished += report.finished;
      total.errors += report.errors;
      for (const [rule, count] of Object.entries(report.ended)) if (count > 0) total.ended[rule] = (total.ended[rule] ?? 0) + count;
    });
  }, 60_000);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      return total;
    },
  };
}

async function endedReasons(info: LocalStackInfo, businessId: number): Promise<Record<string, number>> {
  const db = createDb({ tableName: info.tableName, region: info.region, endpoint: info.dynamoEndpoint });
  const reasons: Record<string, number> = {};
  const pages = paginateQuery(
    { client: db.doc },
    {
      TableName: info.tableName,
      IndexName: GSI1,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.callByBusinessPartition(businessId) },
    },
  );
  for await (const page of pages)
    for (const item of page.Items ?? [])
      reasons[String(item.ended_reason ?? item.status)] = (reasons[String(item.ended_reason ?? item.status)] ?? 0) + 1;
  return reasons;
}

/**
 * DynamoDB Local in memory at normal priority (it stands in for DynamoDB, whose latency does not
 * depend on our CPU; in idle time it wrote under 300 items/s on this VM), fauxqs, the table and queue.
 */
async function startInfra(): Promise<{ info: LocalStackInfo; stop(): Promise<void> }> {
  const dynamo = await startDynamoDbLocal({ startTimeoutMs: 180_000 });
  const fauxqs = await startFauxqsServer();
  const tableName = 'bench-scale';
  await ensureTable(createDb({ tableName, region: 'us-east-1', endpoint: dynamo.endpoint }));
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: fauxqs.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: 'outbound-calls', Attributes: { VisibilityTimeout: '60' } }));
  const info = {
    tableName,
    region: 'us-east-1',
    dynamoEndpoint: dynamo.endpoint,
    sqsEndpoint: fauxqs.endpoint,
    outboundQueueUrl: queue.QueueUrl!,
    recordingsBucket: 'unused',
    localSecretKey: 'unused',
    sandboxAuthToken: 'unused',
  };
  return { info, stop: async () => void (await Promise.all([dynamo.stop(), fauxqs.stop()])) };
}

async function main(): Promise<void> {
  const infra = await startInfra();
  try {
    const { info } = infra;
    const db = createDb({ tableName: info.tableName, region: info.region, endpoint: info.dynamoEndpoint });
    if (PARTS.has('history')) {
      console.log(
        `History: ${BUSINESSES} businesses × ${DAYS} days × ${CALLS_PER_DAY} calls a day (call + detail items, ended) on DynamoDB Local (in memory)`,
      );
      const load = await loadHistory(
        db,
        new CallRepository(db),
        { businesses: BUSINESSES, days: DAYS, callsPerDay: CALLS_PER_DAY },
        new Date(),
      );
      row(
        'written',
        `${load.items} items (${load.calls} calls) in ${load.seconds.toFixed(0)} s: ${(load.items / load.seconds).toFixed(0)} items/s`,
      );
    }
    if (PARTS.has('sweep') || PARTS.has('pacing')) {
      const sweeper = await sweeps(info);
      if (PARTS.has('pacing')) await pacing(sweeper);
    }
    if (PARTS.has('cap')) await campaign(info);
    if (PARTS.has('admission')) await admissions(info);
  } finally {
    await infra.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
