/**
 * `npm run bench:actions`: the in-call tool round trip of the built-in tools, model asks → result
 * back to the model, against DynamoDB Local: the call's `ToolRunner` validates the arguments, runs
 * the tool under its timeout, records the action and hands back the JSON the model gets.
 * `take_message`: an id, one conditional put of the message, the team notice. `check_availability`:
 * the profile read, the day's bookings (GSI1 query), the free times, on a 09:00–17:00 office with
 * 500 bookings over its next 63 weekdays (every other slot taken). `book_appointment`: the
 * profile read, an id, one transaction of the booking and its slot locks, on a distinct slot each
 * time (a business open around the clock with 5-minute slots, so bookings pile up day by day), and its confirmations
 * (none sent here: texts off, no address, no team address). What a call adds on top is one
 * `setTimeout` for the filler and one history insert. Sequential runs (one call), then rounds of
 * concurrent runs (many calls at once in one process). Prints numbers; asserts nothing.
 *
 * Env: BENCH_TOOL_RUNS (500 sequential), BENCH_TOOL_CONCURRENCY (50), BENCH_TOOL_ROUNDS (10).
 */
import { realTimers } from '../media-service/src/server/session-defaults';
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
import type { ToolPorts } from '../media-service/src/tools/tool-types';
import { defaultAssistantConfig } from '../shared/domain/assistant-config';
import { defaultBusinessProfile, type BusinessProfile } from '../shared/domain/business-profile';
import { WEEKDAYS } from '../shared/domain/opening-hours';
import { silentLogger } from '../shared/log';
import { startDynamoDbLocal } from '../scripts/local/stand-ins/dynamodb-local';
import { seedBusiness } from './lib/bench-business';

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

/** The booking rules' clock: Tuesday 1 December 2026, midnight UTC. */
const NOW = new Date('2026-12-01T00:00:00Z');
const MINUTE_MS = 60_000;

/** Round the clock every day in UTC, one 5-minute service on a 5-minute grid, a year ahead: room for every bench booking. */
function roundTheClock(): BusinessProfile {
  const base = defaultBusinessProfile();
  return {
    ...base,
    hours: Object.fromEntries(WEEKDAYS.map((day) => [day, [{ start: '00:00', end: '24:00' }]])) as BusinessProfile['hours'],
    booking: {
      ...base.booking,
      services: [{ name: 'Visit', duration_min: 5, price: null }],
      slot_step_min: 5,
      min_notice_min: 0,
      max_days_ahead: 365,
    },
  };
}

/** The default office (Mon–Fri 09:00–17:00 UTC, 30-minute slots), bookable 90 days ahead. */
function office(): BusinessProfile {
  const base = defaultBusinessProfile();
  return { ...base, booking: { ...base.booking, max_days_ahead: 90 } };
}

/** The office's weekdays from tomorrow, `YYYY-MM-DD`. */
function weekdays(count: number): string[] {
  const days: string[] = [];
  for (let at = NOW.getTime() + 86_400_000; days.length < count; at += 86_400_000) {
    const day = new Date(at);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) days.push(day.toISOString().slice(0, 10));
  }
  return days;
}

/** 500 bookings on the office's next 63 weekdays, every other slot (09:00, 10:00, … 16:00): half of each day taken. */
async function seedOfficeBookings(ports: ToolPorts, businessId: number, days: readonly string[]): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const start = `${days[Math.floor(i / 8)]}T${String(9 + (i % 8)).padStart(2, '0')}:00`;
    const made = await ports.bookings.book(businessId, { start, name: 'Earlier Caller', phone: '+14155550100' });
    if ('reason' in made) throw new Error(`seed booking refused: ${made.reason}`);
  }
}

/** The n-th bookable start, local `YYYY-MM-DDTHH:MM` (from tomorrow, 5 minutes apart). */
const slotAt = (n: number) => new Date(NOW.getTime() + 86_400_000 + n * 5 * MINUTE_MS).toISOString().slice(0, 16);

/** One tool's round trips: after a warm-up, one call at a time, then rounds of many calls at once. */
async function measure(label: string, roundTrip: (callId: number, n: number) => Promise<number>): Promise<void> {
  let n = 0;
  for (let i = 0; i < WARMUP; i++) await roundTrip(1, n++);
  const sequential: number[] = [];
  for (let i = 0; i < RUNS; i++) sequential.push(await roundTrip(10 + i, n++));
  const concurrent: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const calls = Array.from({ length: CONCURRENCY }, (_, i) => 100_000 + round * CONCURRENCY + i);
    concurrent.push(...(await Promise.all(calls.map((callId) => roundTrip(callId, n++)))));
  }
  console.log(`${label} round trip (model asks → result back), DynamoDB Local:`);
  console.log(`  one call at a time: ${summary(sequential)}`);
  console.log(`  ${CONCURRENCY} calls at once: ${summary(concurrent)}`);
}

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
    const ids = new IdAllocator(db);
    const ports = tableBackedToolPorts(db, ids, silentLogger, { sms, smsSandbox: true, email }, () => NOW);
    const config = defaultAssistantConfig();
    const [booker, checker] = [await ids.nextId(), await ids.nextId()];
    await seedBusiness(db, booker, roundTheClock(), NOW);
    await seedBusiness(db, checker, office(), NOW);
    const days = weekdays(63);
    await seedOfficeBookings(ports, checker, days);
    const timed = async (businessId: number, callId: number, name: string, args: object, expected: string) => {
      const runner = new ToolRunner({
        tools: offeredTools(config, null).actions,
        context: {
          businessId,
          callId,
          assistantId: 2,
          partyNumber: '+14155550199',
          businessNumber: '+15550100001',
          allowance: new CallAllowance(),
          profile: null,
          config,
          ports,
        },
        now: () => performance.now(),
        t0: performance.now(),
        timers: realTimers,
        log: silentLogger,
      });
      const started = performance.now();
      const output = await runner.run({ name, arguments: JSON.stringify(args) });
      if (!output.includes(expected)) throw new Error(`${name} failed: ${output.slice(0, 200)}`);
      return performance.now() - started;
    };
    const message = { name: 'Jordan Lee', message: "For Dana: the boiler is leaking, it's urgent.", urgent: true };
    await measure('take_message', (callId) => timed(booker, callId, 'take_message', message, '"saved":true'));
    await measure('book_appointment', (callId, n) =>
      timed(booker, callId, 'book_appointment', { start: slotAt(n), name: 'Jordan Lee' }, '"booked":true'),
    );
    // A day of the office's first 60 weekdays, each half booked (500 bookings in all).
    await measure('check_availability', (callId, n) =>
      timed(checker, callId, 'check_availability', { date: days[n % 60] }, '"free_times":["09:30"'),
    );
  } finally {
    await Promise.all([dynamo.stop(), carrier.close(), ses.close()]);
  }
}

await main();
