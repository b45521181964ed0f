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
