import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { createAdminService } from '../../../functions/lib/deps';
import { scenario, step } from '../../../media-service/src/sandbox/scenario-script';
import { billableMinutes } from '../../../shared/db/minutes-repository';
import { durationSeconds } from '../../../shared/domain/carrier-status';
import { startLocalStack, type LocalStack } from '../../../scripts/local/stack';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, waitForAssistant } from '../../support/call-scenarios';
import { localStackInfra } from '../../support/local-stack-infra';

/**
 * `MEDIA_TASKS=2 npm run dev` with a call-engine process killed (SIGKILL) in the middle of its
 * calls: the stack's one sweeper ends them `error`, billed to their last heartbeat (not to when it
 * noticed), and their slots and reserved minutes come back, as GET /usage shows. A table, queue
 * and bucket of its own (the sweeper reads every open call of its table) and short limits: a
 * heartbeat every 300 ms, stale after 2 s, a sweep every 250 ms.
 */

const STALE_MS = 2000;
const MINUTES = 50;

let stack: LocalStack;
const childLogs: string[] = [];

beforeAll(async () => {
  stack = await startLocalStack({
    apiPort: 0,
    mediaPort: 0,
    mediaTasks: 2,
    infra: await localStackInfra({ ownTable: true }),
    mediaOutput: (line) => childLogs.push(line),
    heartbeatMs: 300,
    sweeper: true,
    sweeperEnv: { SWEEP_EVERY_MS: '250', SWEEP_STALE_HEARTBEAT_MS: String(STALE_MS) },
  });
}, CALL_TEST_MS);

afterAll(async () => {
  await stack?.stop();
});

describe('MEDIA_TASKS=2: a call-engine process killed mid-call', () => {
  it(
    'its calls are ended by the sweeper, billed to their last heartbeat; slots and reserved minutes come back (GET /usage)',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange: a business with two live calls, each on whichever process its stream reached
      onTestFailed(() => console.error(`The call-engine processes' log:\n${childLogs.join('\n')}`));
      const { media, core } = stack;
      const admin = createAdminService(core, 'test');
      const business = await admin.createBusiness(`Killed ${randomUUID().slice(0, 8)}`, MINUTES);
      const api = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${stack.apiUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${business.api_key}`, 'content-type': 'application/json' },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        expect(response.status, await response.clone().text()).toBe(200);
        return (await response.json()) as Record<string, any>;
      };
      const config = { first_message: 'Hello, this is Acme.', advanced: { ...QUIET, max_duration_s: 120, silence_timeout_s: 60 } };
      const assistant = await api('POST', '/assistants', { name: 'Front desk', config });
      await admin.addNumber(business.business_id, {
        number: uniqueNumber(),
        provider: 'sandbox',
        assistantId: assistant.id,
        label: 'main',
      });
      // The callee talks, then stays on the line long enough for the kill to land mid-call.
      const steps = [waitForAssistant(), step.say('I would like to book a cleaning.'), step.pause(8000), step.hangup()];
      const ids: number[] = [];
      for (let i = 0; i < 2; i++) {
        const to = uniqueNumber();
        media.carrier.registerScenario(to, scenario(`callee ${i}`, steps));
        ids.push((await api('POST', '/calls', { assistant_id: assistant.id, to })).id as number);
      }
      const record = (id: number) => core.callRepo.getCallRecord(business.business_id, id);
      // Both calls live, each with a heartbeat written at least a second after its answer, so the
      // billed duration is not zero (a condition, not a timed sleep).
      await vi.waitFor(
        async () => {
          for (const id of ids) {
            const call = await record(id);
            const beat = Date.parse(call?.heartbeat_at ?? '') - Date.parse(call?.started_at ?? '');
            expect(beat, `call ${id}`).toBeGreaterThanOrEqual(1000);
          }
        },
        { timeout: CALL_HANG_MS, interval: 100 },
      );
      expect(await api('GET', '/usage')).toMatchObject({ live_calls: 2, minutes_reserved: 4 });

      // Act: kill -9 the process running the first call's session
      const victim = media.tasks.find((task) => task.sessions.includes(ids[0]!))!;
      process.kill(victim.pid, 'SIGKILL');
      expect(await victim.exit).toBe('SIGKILL');
      const onVictim = ids.filter((id) => victim.sessions.includes(id));
      const ended = await Promise.all(
        ids.map((id) =>
          vi.waitFor(
            async () => {
              const call = await record(id);
              expect(call?.status === 'ended' && call.finish_pending === false, `call ${id}`).toBe(true);
              return call!;
            },
            { timeout: CALL_HANG_MS, interval: 200 },
          ),
        ),
      );

      // Assert: the killed process's calls ended `error` at their last heartbeat, not at the sweep
      for (const call of ended) {
        if (!onVictim.includes(call.id)) {
          expect(call.ended_reason, `call ${call.id} ran on the survivor`).toBe('caller_hung_up');
          continue;
        }
        expect(call.ended_reason, `call ${call.id}`).toBe('error');
        expect(call.ended_at, `call ${call.id} billed to its last heartbeat`).toBe(call.heartbeat_at);
        expect(Date.parse(call.updated_at) - Date.parse(call.ended_at!), `call ${call.id} swept once stale`).toBeGreaterThanOrEqual(
          STALE_MS,
        );
        expect(call.duration_s).toBe(durationSeconds(call.started_at!, call.heartbeat_at!));
        expect(call.duration_s).toBeGreaterThan(0);
      }
      // Every slot and reserved minute is back; exactly the calls' whole minutes were charged.
      const charged = ended.reduce((sum, call) => sum + billableMinutes(call.duration_s ?? 0), 0);
      expect(await api('GET', '/usage')).toMatchObject({
        live_calls: 0,
        minutes_reserved: 0,
        queued_calls: 0,
        minutes_remaining: MINUTES - charged,
      });
    },
  );
});
