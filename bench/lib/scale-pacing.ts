import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encodeMulaw } from '../../media-service/src/audio/mulaw';
import { PacerScheduler } from '../../media-service/src/pipeline/pacer-scheduler';

/**
 * Pacing on a call-engine process: the engine's shared 10 ms `PacerScheduler` (what `bench:calls`
 * reports as pacing jitter: tick lateness) driving `calls` pacers, each encoding a 20 ms μ-law
 * frame every other tick, as the outbound audio path does. Measured in a process of its own (as
 * a media task runs apart from the sweeper, a scheduled Lambda), or in the caller's process (the
 * old placement: the sweep on the audio thread).
 */

/** Tick lateness over one window (ms). */
export interface PacingWindow {
  p99Ms: number;
  maxMs: number;
  ticks: number;
}

/** Runs `calls` pacers on a fresh scheduler in this process for `ms`, and returns its tick lateness. */
export async function measurePacing(calls: number, ms: number): Promise<PacingWindow> {
  const scheduler = new PacerScheduler();
  const pcm = new Int16Array(160).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
  const frame = new Uint8Array(160);
  const removers = Array.from({ length: calls }, (_, call) => {
    let tick = call;
    return scheduler.add({ tick: () => void (tick++ % 2 === 0 && encodeMulaw(pcm, frame)) });
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  for (const remove of removers) remove();
  return { p99Ms: scheduler.latePercentileMs(99), maxMs: scheduler.stats().maxLateMs, ticks: scheduler.stats().ticks };
}

/** A call-engine stand-in process: `measure(calls, ms)` runs {@link measurePacing} there. */
export function startPacingProcess(): { measure(calls: number, ms: number): Promise<PacingWindow>; stop(): void } {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['child'], { execArgv: ['--import', 'tsx'] });
  return {
    measure: (calls, ms) =>
      new Promise((resolve) => {
        child.once('message', (window) => resolve(window as PacingWindow));
        child.send({ calls, ms });
      }),
    stop: () => void child.kill(),
  };
}

if (process.argv[2] === 'child' && process.send) {
  process.on('message', (request: { calls: number; ms: number }) => {
    void measurePacing(request.calls, request.ms).then((window) => process.send!(window));
  });
}
