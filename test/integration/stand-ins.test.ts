import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDb } from '../../shared/db/client';
import { runInIdleTime } from '../stand-ins/priority';

/** The scheduling policy of each thread of `pid` (/proc/<pid>/task/<tid>/sched: 0 normal, 5 idle). */
const threadPolicies = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).map((tid) => Number(/^policy\s*:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/sched`, 'utf8'))?.[1]));

describe('stand-ins', () => {
  it('DynamoDB Local answers and holds the table', async () => {
    // Arrange
    const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
    // Act
    const tables = await db.doc.send(new ListTablesCommand({}));
    // Assert
    expect(tables.TableNames).toContain(inject('tableName'));
  });

  it.runIf(existsSync('/proc/self/sched'))('a background stand-in runs every thread in idle time, threads started later included', async () => {
    // Arrange: a Node child (several threads already), which starts a worker thread on its first stdin line
    const child = spawn(process.execPath, ['-e', "process.stdin.once('data', () => { new (require('node:worker_threads').Worker)('setInterval(() => {}, 1000)', { eval: true }); console.log('started'); }); setInterval(() => {}, 1000);"], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const before = readdirSync(`/proc/${child.pid}/task`).length;
      // Act
      const applied = runInIdleTime(child.pid!);
      child.stdin.write('go\n');
      await new Promise((resolve) => child.stdout.once('data', resolve));
      // Assert
      expect(applied).toBe('sched_idle');
      const policies = threadPolicies(child.pid!);
      expect(policies.length).toBeGreaterThan(before);
      expect(new Set(policies)).toEqual(new Set([5]));
    } finally {
      child.kill();
    }
  });
});
