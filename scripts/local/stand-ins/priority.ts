import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Sets every thread of process `pid` to `niceness` (0 normal … 19 lowest). Linux sets priority per
 * thread, and a thread inherits it from the thread that starts it, so threads started later follow.
 * Where there is no /proc (macOS), only the process's main thread changes.
 */
export function lowerPriority(pid: number, niceness: number): void {
  const tasks = `/proc/${pid}/task`;
  const threads = existsSync(tasks) ? readdirSync(tasks).map(Number) : [pid];
  for (const thread of threads) {
    try {
      setPriority(thread, niceness);
    } catch {
      // The thread ended meanwhile.
    }
  }
}

/**
 * Lets every thread of process `pid` run only on CPU time nothing else wants: Linux's `SCHED_IDLE`
 * policy (util-linux `chrt`; any user may lower a process to it, and threads started later inherit
 * it). A waking normal thread preempts an idle-policy one at once, where even a nice-19 thread
 * can keep its CPU to the end of its time slice. Where there is no `chrt` (macOS), falls back to the
 * lowest niceness. Returns which of the two applied.
 */
export function runInIdleTime(pid: number): 'sched_idle' | 'nice_19' {
  try {
    execFileSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(pid)], { stdio: 'ignore' });
    return 'sched_idle';
  } catch {
    lowerPriority(pid, 19);
    return 'nice_19';
  }
}

/**
 * Puts thread `tid` (a process's main thread when `tid` is its pid) under Linux's round-robin
 * real-time policy (`SCHED_RR`, at `priority`, 1–99) with reset-on-fork: ready, it runs before
 * every normal thread (and before real-time threads of a lower priority), while the threads and
 * processes it starts afterwards begin as normal ones. Only that thread changes: threads it already
 * has (V8's GC helpers) keep their policy. Needs root, CAP_SYS_NICE or an `RLIMIT_RTPRIO` of at
 * least `priority`; where that is refused, or there is no `chrt`, nothing changes. Returns which applied.
 */
export function runInRealTime(tid: number, priority: number): 'sched_rr' | 'refused' {
  try {
    execFileSync('chrt', ['--rr', '--reset-on-fork', '--pid', String(priority), String(tid)], { stdio: 'ignore' });
    return 'sched_rr';
  } catch {
    return 'refused';
  }
}
