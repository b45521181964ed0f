import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDb } from '../../shared/db/client';
import { runInIdleTime, runInRealTime } from '../../scripts/local/stand-ins/priority';

/** The scheduling policy of each thread of `pid` (/proc/<pid>/task/<tid>/sched: 0 normal, 2 round-robin real time, 5 idle). */
const threadPolicies = (pid: number) => new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [Number(tid), policyOf(pid, Number(tid))]));
const policyOf = (pid: number, tid: number) =>
  Number(/^policy\s*:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/sched`, 'utf8'))?.[1]);

/** A Node child (several threads already) that starts a worker thread on its first stdin line. */
const spawnThreadedChild = () =>
  spawn(
    process.execPath,
    [
      '-e',
      "process.stdin.once('data', () => { new (require('node:worker_threads').Worker)('setInterval(() => {}, 1000)', { eval: true }); console.log('started'); }); setInterval(() => {}, 1000);",
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
const startWorker = async (child: ReturnType<typeof spawnThreadedChild>) => {
  child.stdin.write('go\n');
  await new Promise((resolve) => child.stdout.once('data', resolve));
};

describe('stand-ins', () => {
  it('DynamoDB Local answers and holds the table', async () => {
    // Arrange
    const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
    // Act
    const tables = await db.doc.send(new ListTablesCommand({}));
    // Assert
    expect(tables.TableNames).toContain(inject('tableName'));
  });

  it.runIf(existsSync('/proc/self/sched'))(
    'a background stand-in runs every thread in idle time, threads started later included',
    async () => {
      // Arrange
      const child = spawnThreadedChild();
      try {
        const before = readdirSync(`/proc/${child.pid}/task`).length;
        // Act
        const applied = runInIdleTime(child.pid!);
        await startWorker(child);
        // Assert
        expect(applied).toBe('sched_idle');
        const policies = threadPolicies(child.pid!);
        expect(policies.size).toBeGreaterThan(before);
        expect(new Set(policies.values())).toEqual(new Set([5]));
      } finally {
        child.kill();
      }
    },
  );

  it.runIf(existsSync('/proc/self/sched'))(
    'real time applies to the one thread named, never to its other threads or to threads it starts later',
    async () => {
      // Arrange
      const child = spawnThreadedChild();
      try {
        const before = readdirSync(`/proc/${child.pid}/task`).length;
        // Act
        const applied = runInRealTime(child.pid!, 10);
        await startWorker(child);
        // Assert: the main thread is round-robin real time where the machine allows it, unchanged where not
        const policies = threadPolicies(child.pid!);
        expect(policies.size).toBeGreaterThan(before);
        expect(policies.get(child.pid!)).toBe(applied === 'sched_rr' ? 2 : 0);
        policies.delete(child.pid!);
        expect(new Set(policies.values())).toEqual(new Set([0]));
      } finally {
        child.kill();
      }
    },
  );
});
