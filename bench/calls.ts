/**
 * `npm run bench:calls`: N concurrent sandbox calls against one media-service process (this one:
 * `MediaServer` + `startCallSession`, dialled from the outbound queue), with the sandbox phone
 * network (carrier, callees, Flux) in one child process and the voice providers (OpenAI, Aura) in
 * another (bench/calls-providers.ts). Reports our pipeline overhead per turn, voice-to-voice
 * latency with realistic provider latencies (eager on and off), pacing jitter, CPU and RSS per
 * call, and the largest N held with no underrun or late tick. Prints numbers; asserts nothing.
 *
 * After the warm-up, a probe (bench/lib/floor.ts) makes a turn's two provider round trips 200 times
 * with no call running: the floor this machine puts under the overhead measure.
 *
 * Before measuring, one unreported warm-up run (BENCH_WARMUP_CALLS, 20; 0 skips it) lets the JIT
 * compilers of the media process and the stand-ins reach steady code, as a long-running service has.
 * DynamoDB Local runs in memory, in idle time only (`runInIdleTime`): AWS's DynamoDB takes none of our CPU.
 *
 * The media process's main thread runs at real-time priority where the machine allows it, and the
 * voice providers' main thread just below it (`REAL_TIME`; BENCH_REAL_TIME=off leaves both at normal
 * priority): on Fargate the media service has its task's vCPUs to itself and the providers answer
 * from their own machines, while here every process shares two cores. The phone network, DynamoDB
 * Local and every GC helper thread stay at normal priority or below.
 *
 * The floor probe and the overhead run are repeated (BENCH_REPEATS, 4) and the pooled percentiles are
 * taken over the turns of every repeat: a p99 of one run's 400 turns is its 4th-slowest turn, which
 * moves by several ms from run to run on a shared machine. Every figure is printed for each run with
 * its spread (min / median / max), each run is held to the issue's targets (overhead p99 at most its
 * own floor's p99 + 3 ms, RSS at most 0.5 MiB per call), and each run says where its slow turns'
 * time went (bench/lib/turn-causes.ts): the media GC, its other work, its waits for a core, or its
 * idle time awaiting the providers, with the endings and set-ups that ran beside them.
 *
 * Env: BENCH_REAL_TIME ("off": no real-time priorities), BENCH_OVERHEAD_CALLS (100), BENCH_REPEATS (4; BENCH_OVERHEAD_RUNS is the old name), BENCH_LATENCY_CALLS (20; 0 skips those runs),
 * BENCH_RAMP ("50,100,150,200,300"), BENCH_TURNS_FILE (writes every turn row of the overhead runs as JSON, for digging into outliers),
 * BENCH_TIMELINE=1 (prints calls and event-loop delay each second of each run), BENCH_THINK_MS (1000: each
 * callee pauses 0–1000 ms, seeded per call, before each line; 0: every callee answers after the same
 * pause, so calls dialled together take their turns in lockstep).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { createCoreDeps } from '../functions/lib/deps';
import { ApiConfigSchema } from '../functions/lib/config';
import { readConfig } from '../shared/config';
import { startLocalInfra } from '../scripts/local/infra';
import { runInRealTime } from '../scripts/local/stand-ins/priority';
import { measureFloor } from './lib/floor';
import { REAL_TIME } from './lib/providers-child';
import { CROWD_MS, runCalls, type BenchEnv, type RunResult } from './lib/run';
import { describeCauses } from './lib/turn-causes';
import { createTenants } from './lib/tenants';

const WARMUP_CALLS = Number(process.env.BENCH_WARMUP_CALLS ?? 20);
const OVERHEAD_CALLS = Number(process.env.BENCH_OVERHEAD_CALLS ?? 100);
const OVERHEAD_RUNS = Math.max(1, Number(process.env.BENCH_REPEATS ?? process.env.BENCH_OVERHEAD_RUNS ?? 4));
const LATENCY_CALLS = Number(process.env.BENCH_LATENCY_CALLS ?? 20);
const RAMP = (process.env.BENCH_RAMP ?? '50,100,150,200,300').split(',').map(Number);
/** The first bar (issue): overhead p99 and pacing jitter p99 at or under 20 ms. */
const BAR_MS = 20;
/** Issue 31's targets at 100 calls, in every run: overhead p99 at most the floor's p99 plus this (ms)… */
const OVER_FLOOR_MS = 3;
/** …RSS at most this per call (MiB); and CPU per call toward this (% of a core). */
const RSS_TARGET_MIB = 0.5;
const CPU_TARGET_PCT = 0.1;
/** Aura pace of the bench: replies play ~2× faster than real speech, so calls last ~20 s (frames still go out at real time). */
const MS_PER_CHAR = 30;
const ZERO = { ttftMs: 0, tokenIntervalMs: 0, ttsFirstByteMs: 0, msPerChar: MS_PER_CHAR };
/** The issue's latencies; 10 ms between tokens (~100 tokens/s) as the sandbox's default. */
const REALISTIC = { ttftMs: 350, tokenIntervalMs: 10, ttsFirstByteMs: 150, msPerChar: MS_PER_CHAR };

/** Nearest-rank percentile (same rule as the call metrics). */
function pct(values: number[], p: number): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(0)} ms`);
/**
 * Our own share of a turn: EndOfTurn → first frame sent, minus the waits for the providers: the
 * model's first speakable clause (`first_text_ms`) and the voice's first audio byte. The sandbox
 * providers are set to 0 ms, but on a shared 2-core machine their process still answers late under
 * load, and tokens stream in over several event-loop turns; this row is the pipeline's own cost.
 */
const ownOverhead = (rows: RunResult['turns']) =>
  rows.flatMap((row) => {
    const { first_audio_sent_ms: sent, first_text_ms: text, tts_first_byte_ms: tts } = row;
    return typeof sent === 'number' && typeof text === 'number' && typeof tts === 'number' ? [Math.max(0, sent - text - tts)] : [];
  });
const sentAfterEndOfTurn = (rows: RunResult['turns']) =>
  rows.map((row) => row.first_audio_sent_ms).filter((value): value is number => typeof value === 'number');
const column = (result: RunResult, field: string) =>
  result.turns.map((turn) => turn[field]).filter((value): value is number => typeof value === 'number');
/**
 * Turns over the bar: how many, how many of them the media process's own GC paused for at least 5 ms
 * (`gc_pause_ms`), and their median waits for the model's first token and the voice's first byte
 * beside those of every turn (where the slow turns lost their time).
 */
const slowTurns = (rows: RunResult['turns']) => {
  const slow = rows.filter((row) => typeof row.first_audio_sent_ms === 'number' && row.first_audio_sent_ms > BAR_MS);
  const paused = slow.filter((row) => typeof row.gc_pause_ms === 'number' && row.gc_pause_ms >= 5).length;
  const median = (of: RunResult['turns'], field: string) =>
    ms(
      pct(
        of.map((row) => row[field]).filter((value): value is number => typeof value === 'number'),
        50,
      ),
    );
  const waits = (field: string) => `${median(slow, field)} (all turns ${median(rows, field)})`;
  return `${slow.length}; ${paused} paused ≥ 5 ms by the media GC; median LLM first token ${waits('llm_first_token_ms')}, TTS first byte ${waits('tts_first_byte_ms')}`;
};
const tenths = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(1)} ms`);
const roundsP50to99 = (values: number[]) =>
  `p50 ${tenths(pct(values, 50))}  p95 ${tenths(pct(values, 95))}  p99 ${tenths(pct(values, 99))}  (${values.length} rounds)`;
const p50to99 = (values: number[]) =>
  `p50 ${ms(pct(values, 50))}  p95 ${ms(pct(values, 95))}  p99 ${ms(pct(values, 99))}  (${values.length} turns)`;

/** A run's pacing health: every call completed, no underrun, tick lateness p99 within the bar. */
const held = (result: RunResult) => result.completed === result.spec.calls && result.underruns === 0 && result.tickP99Ms <= BAR_MS;

function describeRun(name: string, result: RunResult): string[] {
  const reasons = Object.entries(result.endedReasons)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  const child = result.providers;
  return [
    `${name}: N=${result.spec.calls} (peak ${result.peakConcurrent} concurrent), ${result.completed}/${result.spec.calls} completed [${reasons}], ${result.wallS.toFixed(1)} s`,
    `    pacing: underruns ${result.underruns} (${result.underrunMs} ms), media tick lateness p99 ${result.tickP99Ms.toFixed(1)} ms, max ${result.tickMaxMs.toFixed(1)} ms; steady state (${result.steady.seconds.toFixed(1)} s, all ${result.spec.calls} talking): p99 ${result.steady.tickP99Ms.toFixed(1)} ms, max ${result.steady.tickMaxMs.toFixed(1)} ms`,
    `    media process: CPU ${result.cpuPctPerCall.toFixed(2)} % of a core per call (steady state ${result.steady.cpuPctPerCall.toFixed(2)} %), RSS +${result.rssMiBPerCall.toFixed(2)} MiB per call; ${result.logs.count} log lines`,
    `    heap after major GCs: ${result.liveHeap ? `${result.liveHeap.mibPerCall.toFixed(2)} MiB per live call (slope over ${result.liveHeap.points} major GCs at ${result.liveHeap.calls[0]}–${result.liveHeap.calls[1]} calls live)` : '— (too few major GCs)'}`,
    `    media GC: ${result.gc.major} major, ${result.gc.minor} minor, ${result.gc.pausedMs.toFixed(0)} ms paused in all, longest pause ${result.gc.longestMs.toFixed(1)} ms; event-loop delay p99 ${result.loopDelay.p99Ms.toFixed(1)} ms, max ${result.loopDelay.maxMs.toFixed(1)} ms; the bench's probe ${result.probeCostMs.toFixed(0)} ms of CPU (not counted)`,
    ...(result.mainThread
      ? [
          `    media main thread: ${(result.mainThread.runMs / 1000).toFixed(1)} s on a CPU, ${(result.mainThread.runqueueWaitMs / 1000).toFixed(1)} s ready but waiting for one (other processes and threads had both cores)`,
        ]
      : []),
    ...(child
      ? [
          `    phone network child: ${child.calls} carrier calls, carrier tick p99 ${child.carrierTickP99Ms.toFixed(1)} ms (max ${child.carrierTickMaxMs.toFixed(1)} ms), ${child.networkCpuS.toFixed(1)} s CPU`,
          `    voice providers child: ${child.llmRequests} LLM requests, ${child.voiceCpuS.toFixed(1)} s CPU; ${child.errors} errors in the children`,
        ]
      : []),
    ...(result.sandboxCpuPctPerCall
      ? [
          `    sandbox CPU per call (not in the media figure): phone network ${result.sandboxCpuPctPerCall.network.toFixed(2)} %, voice providers ${result.sandboxCpuPctPerCall.voice.toFixed(2)} % of a core`,
        ]
      : []),
  ];
}

/** One overhead run against its own floor: the issue's targets, and where its slow turns' time went. */
function describeTargets(result: RunResult, floor: number[]): string[] {
  const floorP99 = pct(floor, 99) ?? 0;
  const overheadP99 = pct(sentAfterEndOfTurn(result.turns), 99) ?? 0;
  const bar = floorP99 + OVER_FLOOR_MS;
  const { slow, all } = result.causes(bar);
  return [
    `    floor p99 ${tenths(floorP99)}; overhead p50 ${ms(pct(sentAfterEndOfTurn(result.turns), 50))}, p99 ${ms(overheadP99)}: ${overheadP99 <= bar ? 'within' : 'over'} floor + ${OVER_FLOOR_MS} ms (${tenths(bar)}); RSS ${result.rssMiBPerCall.toFixed(2)} MiB per call: ${result.rssMiBPerCall <= RSS_TARGET_MIB ? 'within' : 'over'} ${RSS_TARGET_MIB} MiB`,
    `    slow turns (over ${tenths(bar)}): ${describeCauses(slow)}`,
    `    every turn, for comparison: ${describeCauses(all)}`,
  ];
}

/** Each run's value of a figure, then min / median / max over the runs. */
function spreadRow(values: number[], digits: number, unit: string): string {
  const show = (value: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return `${values.map(show).join(', ')} ${unit}`;
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return `${values.map(show).join(', ')} ${unit}  (min ${show(sorted[0]!)} / median ${show(median)} / max ${show(sorted.at(-1)!)})`;
}

/** The turns of several runs of the same spec, taken together (every turn row and every phase). */
type PooledTurns = Pick<RunResult, 'turns' | 'steadyTurns' | 'rampTurns' | 'teardownTurns' | 'crowdedTurns' | 'loneTurns'>;
const poolTurns = (runs: readonly RunResult[]): PooledTurns => ({
  turns: runs.flatMap((run) => run.turns),
  steadyTurns: runs.flatMap((run) => run.steadyTurns),
  rampTurns: runs.flatMap((run) => run.rampTurns),
  teardownTurns: runs.flatMap((run) => run.teardownTurns),
  crowdedTurns: runs.flatMap((run) => run.crowdedTurns),
  loneTurns: runs.flatMap((run) => run.loneTurns),
});

/** The measured runs, in order: (1) overhead/CPU/RSS, (2) voice to voice eager on/off, (5) the ramp. */
async function measure(env: BenchEnv) {
  const say = (...lines: string[]) => lines.forEach((line) => console.log(line));
  if (WARMUP_CALLS > 0) {
    const warmup = await runCalls(env, { calls: WARMUP_CALLS, eager: false, latencies: ZERO });
    say(`warm-up: ${warmup.completed}/${WARMUP_CALLS} calls completed in ${warmup.wallS.toFixed(1)} s (not measured)`);
  }
  // (0) The same provider round trips with no call running: this machine's floor under (1), taken
  // again before each repeat (the machine's load moves between runs).
  // (1) Zero provider latency, eager off: the whole reply path runs after EndOfTurn. Repeated, and
  // the first run stands for the pacing figures of the summary and the ramp's N.
  const overheadRuns: RunResult[] = [];
  const floors: number[][] = [];
  for (let run = 1; run <= OVERHEAD_RUNS; run++) {
    const floor = await measureFloor(ZERO);
    const result = await runCalls(env, { calls: OVERHEAD_CALLS, eager: false, latencies: ZERO });
    say(
      ...describeRun(`overhead run ${run}/${OVERHEAD_RUNS} (provider latencies 0, eager off)`, result),
      ...describeTargets(result, floor),
    );
    overheadRuns.push(result);
    floors.push(floor);
  }
  const floor = floors.flat();
  const overhead = overheadRuns[0]!;
  const pooled = poolTurns(overheadRuns);
  if (process.env.BENCH_TURNS_FILE) writeFileSync(process.env.BENCH_TURNS_FILE, JSON.stringify(pooled.turns));
  // (2) Realistic latencies, eager on and off (0 calls: skipped, the overhead run stands in).
  const latencyRun = async (eager: boolean) => {
    if (LATENCY_CALLS === 0) return overhead;
    const result = await runCalls(env, { calls: LATENCY_CALLS, eager, latencies: REALISTIC });
    say(...describeRun(`latency run, eager ${eager ? 'on' : 'off'} (LLM first token 350 ms, TTS first byte 150 ms)`, result));
    return result;
  };
  const eagerOn = await latencyRun(true);
  const eagerOff = await latencyRun(false);
  // (5) Ramp at zero latency, stopping at the first N that does not hold (the overhead runs count
  // for their N: it holds only if every one of them held).
  const ramp: RunResult[] = [];
  for (const calls of RAMP) {
    const reused = calls === OVERHEAD_CALLS ? (overheadRuns.find((run) => !held(run)) ?? overhead) : undefined;
    const result = reused ?? (await runCalls(env, { calls, eager: false, latencies: ZERO }));
    if (!reused) say(...describeRun(`ramp N=${calls}`, result));
    ramp.push(result);
    if (!held(result)) break;
  }
  return { floor, floors, overheadRuns, pooled, eagerOn, eagerOff, largest: ramp.filter(held).at(-1)?.spec.calls };
}

/** Raises the media thread (the voice child is raised as it starts) and says how both are scheduled (see the header), with every verdict. */
function raiseMediaThread(): string {
  if (!REAL_TIME) return 'normal priority (BENCH_REAL_TIME=off)';
  return runInRealTime(process.pid, REAL_TIME.media) === 'sched_rr'
    ? `real-time priority (SCHED_RR ${REAL_TIME.media}; the voice providers' ${REAL_TIME.voice})`
    : 'normal priority (real time refused here)';
}

/** The summary table. */
function printSummary(
  { floor, floors, overheadRuns, pooled, eagerOn, eagerOff, largest }: Awaited<ReturnType<typeof measure>>,
  priorities: string,
): void {
  const overhead = overheadRuns[0]!;
  const runs = overheadRuns.length;
  const eachRun = (values: (run: RunResult) => string) => overheadRuns.map(values).join(', ');
  console.log('');
  console.log(
    `Call engine, one media process (${OVERHEAD_CALLS} calls for overhead/CPU/RSS, ${LATENCY_CALLS} for voice-to-voice), sandbox phone network and voice providers in two child processes; media and voice-provider main threads at ${priorities}:`,
  );
  const table: [string, string][] = [
    [
      `overhead: EndOfTurn → first audio frame sent (providers 0 ms, ${runs} run${runs === 1 ? '' : 's'})`,
      p50to99(sentAfterEndOfTurn(pooled.turns)),
    ],
    ['  p99 of each run', eachRun((run) => ms(pct(sentAfterEndOfTurn(run.turns), 99)))],
    ['  floor: the same provider round trips, no call running', roundsP50to99(floor)],
    ['  while calls were being set up', p50to99(sentAfterEndOfTurn(pooled.rampTurns))],
    ['  steady state (all connected, none ended)', p50to99(sentAfterEndOfTurn(pooled.steadyTurns))],
    ['  after the first call ended', p50to99(sentAfterEndOfTurn(pooled.teardownTurns))],
    [`  alone (no other call's EndOfTurn within ${CROWD_MS} ms)`, p50to99(sentAfterEndOfTurn(pooled.loneTurns))],
    [`  crowded (another call's EndOfTurn within ${CROWD_MS} ms)`, p50to99(sentAfterEndOfTurn(pooled.crowdedTurns))],
    [`  turns over ${BAR_MS} ms`, slowTurns(pooled.turns)],
    ['  our own share (minus waits for the first clause and first byte)', p50to99(ownOverhead(pooled.turns))],
    ['    steady state', p50to99(ownOverhead(pooled.steadyTurns))],
    ['voice-to-voice, eager on (LLM 350 ms, TTS 150 ms)', p50to99(column(eagerOn, 'latency_ms'))],
    ['  of which turns answered eagerly', `${eagerOn.turns.filter((turn) => turn.eager === true).length} of ${eagerOn.turns.length}`],
    ['voice-to-voice, eager off', p50to99(column(eagerOff, 'latency_ms'))],
    [
      `pacing jitter: media tick lateness p99 (N=${OVERHEAD_CALLS})`,
      `${overhead.tickP99Ms.toFixed(1)} ms (max ${overhead.tickMaxMs.toFixed(1)} ms); pacer underruns ${overhead.underruns}`,
    ],
    [
      '  steady state (all connected, none ended)',
      `${overhead.steady.tickP99Ms.toFixed(1)} ms (max ${overhead.steady.tickMaxMs.toFixed(1)} ms) over ${overhead.steady.seconds.toFixed(1)} s`,
    ],
    ['  p99 of each run (pacer underruns)', eachRun((run) => `${run.tickP99Ms.toFixed(1)} ms (${run.underruns})`)],
    [
      `CPU per call (N=${OVERHEAD_CALLS})`,
      `${medianOf(overheadRuns.map((run) => run.cpuPctPerCall)).toFixed(2)} % of one core (steady state ${medianOf(overheadRuns.map((run) => run.steady.cpuPctPerCall)).toFixed(2)} %), median of ${runs}`,
    ],
    [`RSS per call (N=${OVERHEAD_CALLS})`, `${medianOf(overheadRuns.map((run) => run.rssMiBPerCall)).toFixed(2)} MiB, median of ${runs}`],
    [
      'largest N held (all completed, 0 underruns, tick p99 ≤ 20 ms)',
      largest === undefined ? `none of ${RAMP.join(', ')}` : `${largest}${largest === RAMP.at(-1) ? ' (largest tried)' : ''}`,
    ],
  ];
  for (const [name, value] of table) console.log(`  ${name.padEnd(64)} ${value}`);
  // The bar as the issue defines it (EndOfTurn → first frame, providers set to 0 ms, p99 over every
  // overhead run's turns; jitter within the bar in every run), and the same with the provider
  // process's own waits taken out (see ownOverhead).
  const jitterOk = overheadRuns.every((run) => run.tickP99Ms <= BAR_MS) && overhead.spec.calls >= 100;
  const verdict = (values: number[]) => {
    const p99 = pct(values, 99);
    return p99 !== undefined && p99 <= BAR_MS && jitterOk ? 'met' : 'missed';
  };
  console.log(
    `First bar (100 calls, overhead p99 ≤ ${BAR_MS} ms over ${runs} run${runs === 1 ? '' : 's'}, jitter p99 ≤ ${BAR_MS} ms in each; main threads at ${priorities}): ${verdict(sentAfterEndOfTurn(pooled.turns))}`,
  );
  console.log(`  with our own code only (provider waits taken out): ${verdict(ownOverhead(pooled.turns))}`);
  printSpread(overheadRuns, floors);
}

const medianOf = (values: number[]) => pct(values, 50) ?? 0;

/** Every run's figures side by side with their spread, and the issue's targets run by run. */
function printSpread(runs: RunResult[], floors: number[][]): void {
  const figure = (of: (run: RunResult, i: number) => number | undefined) => runs.map((run, i) => of(run, i) ?? NaN);
  const overheadP99 = figure((run) => pct(sentAfterEndOfTurn(run.turns), 99));
  const floorP99 = floors.map((rounds) => pct(rounds, 99) ?? NaN);
  const rows: [string, string][] = [
    [
      'overhead p50 (ms)',
      spreadRow(
        figure((run) => pct(sentAfterEndOfTurn(run.turns), 50)),
        0,
        'ms',
      ),
    ],
    ['overhead p99 (ms)', spreadRow(overheadP99, 0, 'ms')],
    ['floor p99 (ms)', spreadRow(floorP99, 1, 'ms')],
    [
      'overhead p99 over the floor p99 (ms)',
      spreadRow(
        overheadP99.map((value, i) => value - floorP99[i]!),
        1,
        'ms',
      ),
    ],
    [
      'RSS per call (MiB)',
      spreadRow(
        figure((run) => run.rssMiBPerCall),
        2,
        'MiB',
      ),
    ],
    [
      'heap per live call, after major GCs (MiB)',
      spreadRow(
        figure((run) => run.liveHeap?.mibPerCall),
        2,
        'MiB',
      ),
    ],
    [
      'CPU per call (% of a core)',
      spreadRow(
        figure((run) => run.cpuPctPerCall),
        2,
        '%',
      ),
    ],
    [
      '  steady state',
      spreadRow(
        figure((run) => run.steady.cpuPctPerCall),
        2,
        '%',
      ),
    ],
    [
      'pacing jitter p99 (ms)',
      spreadRow(
        figure((run) => run.tickP99Ms),
        1,
        'ms',
      ),
    ],
    [
      'event-loop delay p99 (ms)',
      spreadRow(
        figure((run) => run.loopDelay.p99Ms),
        1,
        'ms',
      ),
    ],
    [
      'media GC paused (ms), major GCs',
      `${spreadRow(
        figure((run) => run.gc.pausedMs),
        0,
        'ms',
      )}; ${figure((run) => run.gc.major).join(', ')} major`,
    ],
    [
      'media thread waiting for a core (s)',
      spreadRow(
        figure((run) => (run.mainThread?.runqueueWaitMs ?? NaN) / 1000),
        1,
        's',
      ),
    ],
  ];
  // A run that never had all N calls up at once, or did not complete them, measured a smaller load.
  const whole = runs.map((run) => run.peakConcurrent === run.spec.calls && run.completed === run.spec.calls);
  console.log('');
  console.log(
    `Each of the ${runs.length} runs (N=${OVERHEAD_CALLS}), then min / median / max; complete (all ${OVERHEAD_CALLS} up at once and completed): ${whole.map((ok) => (ok ? 'yes' : 'NO')).join(', ')}`,
  );
  for (const [name, value] of rows) console.log(`  ${name.padEnd(40)} ${value}`);
  const within = overheadP99.filter((value, i) => value <= floorP99[i]! + OVER_FLOOR_MS).length;
  const lean = runs.filter((run) => run.rssMiBPerCall <= RSS_TARGET_MIB).length;
  const verdict = whole.includes(false)
    ? `not decided (${whole.filter((ok) => !ok).length} of ${runs.length} runs incomplete: the machine could not hold ${OVERHEAD_CALLS} calls)`
    : within === runs.length && lean === runs.length
      ? 'met'
      : 'missed';
  console.log(
    `Issue 31 targets, run by run: overhead p99 ≤ its floor p99 + ${OVER_FLOOR_MS} ms in ${within} of ${runs.length}; RSS ≤ ${RSS_TARGET_MIB} MiB per call in ${lean} of ${runs.length}; CPU per call median ${medianOf(figure((run) => run.cpuPctPerCall)).toFixed(2)} % (toward ${CPU_TARGET_PCT} %): ${verdict}`,
  );
}

async function main(): Promise<void> {
  const priorities = raiseMediaThread();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-calls-'));
  const home = process.cwd();
  process.chdir(dataDir); // the infra helpers keep DynamoDB Local's data under ./.data
  const infra = await startLocalInfra({ benchmark: true }).finally(() => process.chdir(home));
  try {
    const { info } = infra;
    const config = readConfig(ApiConfigSchema, {
      TABLE_NAME: info.tableName,
      AWS_REGION: info.region,
      DYNAMODB_ENDPOINT: info.dynamoEndpoint,
      SQS_ENDPOINT: info.sqsEndpoint,
      OUTBOUND_QUEUE_URL: info.outboundQueueUrl,
      LOCAL_SECRET_KEY: info.localSecretKey,
    });
    const core = createCoreDeps(config);
    const sqs = new SQSClient({
      region: info.region,
      endpoint: info.sqsEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const maxCalls = Math.max(OVERHEAD_CALLS, LATENCY_CALLS, ...RAMP);
    printSummary(await measure({ core, tenants: await createTenants(core, sqs, info.outboundQueueUrl, maxCalls) }), priorities);
  } finally {
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
