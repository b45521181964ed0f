/**
 * `npm run bench:actions`: the in-call tool round trip of the built-in tools, model asks → result
 * back to the model, against DynamoDB Local: the call's `ToolRunner` validates the arguments, runs
 * `take_message` (an id, one conditional put of the message, the team notice) under its timeout,
 * records the action and hands back the JSON the model gets. What a call adds on top is one
 * `setTimeout` for the filler and one history insert. Sequential runs (one call), then rounds of
 * concurrent runs (many calls at once in one process). Prints numbers; asserts nothing.
 *
 * Env: BENCH_TOOL_RUNS (500 sequential), BENCH_TOOL_CONCURRENCY (50), BENCH_TOOL_ROUNDS (10).
 */
import { realTimers } from '../media-service/src/call/session-defaults';
import { SesEmail } from '../media-service/src/adapters/ses-email';
import { TwilioSms } from '../media-service/src/adapters/twilio-sms';
import { SesSandboxServer } from '../media-service/src/sandbox/ses-server';
import { SandboxCarrier } from '../media-service/src/sandbox/carrier';
import { CallAllowance } from '../media-service/src/tools/call-allowance';
import { ToolRunner } from '../media-service/src/tools/tool-runner';
import { offeredTools } from '../media-service/src/tools/registry';
import { tableBackedToolPorts } from '../media-service/src/tools/tool-ports';
import { createDb } from '../shared/db/client';
import { ensureTable } from '../shared/db/create-table';
import { IdAllocator } from '../shared/db/ids';
import { defaultAssistantConfig } from '../shared/domain/assistant-config';
import { defaultBusinessProfile } from '../shared/domain/business-profile';
import { silentLogger } from '../shared/log';
import { startDynamoDbLocal } from '../test/stand-ins/dynamodb-local';

const RUNS = Number(process.env.BENCH_TOOL_RUNS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_TOOL_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_TOOL_ROUNDS ?? 10);
const WARMUP = 100;

/** Nearest-rank percentile (same rule as the call metrics). */
function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const summary = (values: number[]) =>
  `p50 ${pct(values, 50).toFixed(1)} ms, p95 ${pct(values, 95).toFixed(1)} ms, p99 ${pct(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (n=${values.length})`;

async function main(): Promise<void> {
  // Normal priority: here DynamoDB Local is the back end being measured, not a bystander as in bench:calls.
  const [dynamo, carrier, ses] = await Promise.all([
    startDynamoDbLocal(),
    SandboxCarrier.start({ log: silentLogger }),
    SesSandboxServer.start(),
  ]);
  try {
    const db = createDb({ tableName: 'bench-actions', region: 'local', endpoint: dynamo.endpoint });
    await ensureTable(db);
    const sms = new TwilioSms({ accountSid: carrier.accountSid, authToken: carrier.authToken, baseUrl: carrier.baseUrl });
    const email = new SesEmail({
      region: 'us-east-1',
      endpoint: ses.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      fromAddress: 'assistant@bench.localhost',
    });
    const ports = tableBackedToolPorts(db, new IdAllocator(db), silentLogger, { sms, email });
    const config = defaultAssistantConfig();
    const profile = { ...defaultBusinessProfile(), display_name: 'Acme Plumbing', team_emails: ['desk@acme.test'] };
    const runnerFor = (callId: number) =>
      new ToolRunner({
        tools: offeredTools(config, profile).actions,
        context: {
          businessId: 1,
          callId,
          assistantId: 2,
          partyNumber: '+14155550199',
          businessNumber: '+15550100001',
          allowance: new CallAllowance(),
          profile,
          config,
          ports,
        },
        now: () => performance.now(),
        t0: performance.now(),
        timers: realTimers,
        log: silentLogger,
      });
    const args = JSON.stringify({ name: 'Jordan Lee', message: "For Dana: the boiler is leaking, it's urgent.", urgent: true });
    const roundTrip = async (runner: ToolRunner) => {
      const started = performance.now();
      const output = await runner.run({ name: 'take_message', arguments: args });
      if (!output.includes('"saved":true')) throw new Error(`take_message failed: ${output}`);
      return performance.now() - started;
    };
    const one = runnerFor(1);
    for (let i = 0; i < WARMUP; i++) await roundTrip(one);
    const sequential: number[] = [];
    for (let i = 0; i < RUNS; i++) sequential.push(await roundTrip(runnerFor(10 + i)));
    const concurrent: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const runners = Array.from({ length: CONCURRENCY }, (_, i) => runnerFor(100_000 + round * CONCURRENCY + i));
      concurrent.push(...(await Promise.all(runners.map(roundTrip))));
    }
    console.log(`take_message round trip (model asks → result back), DynamoDB Local:`);
    console.log(`  one call at a time: ${summary(sequential)}`);
    console.log(`  ${CONCURRENCY} calls at once: ${summary(concurrent)}`);
  } finally {
    await Promise.all([dynamo.stop(), carrier.close(), ses.close()]);
  }
}

await main();
