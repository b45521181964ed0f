import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createAdminService } from '../../../functions/lib/deps';
import { scenario, step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import { localMediaEnv } from '../../../scripts/local/media';
import { spawnMediaTask } from '../../../scripts/local/media-tasks';
import { startLocalStack, type LocalStack } from '../../../scripts/local/stack';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { localStackInfra } from '../../support/local-stack-infra';
import { startCompletedWebhooks, type CompletedWebhooks } from '../../support/completed-webhooks';
import { endedByAssistant, endedByCaller, QUIET, waitForAssistant } from '../../support/call-scenarios';

/**
 * `MEDIA_TASKS=2 npm run dev`, as it runs: the same `startLocalStack`, two call-engine child
 * processes behind the round-robin proxy, the sandbox carrier and providers and the after-call
 * pipeline in this process. Calls are placed through the API over HTTP (and one rings in through
 * the carrier); each is awaited on its signed `call.completed` webhook, which proves its events
 * came back from the child to the after-call pipeline here. Then one child is killed (SIGKILL)
 * while idle, and a new call still completes, on the other.
 */

interface Completed {
  id: number;
  direction: string;
  from_number: string;
  ended_reason: string;
  transcript: { role: string; text: string }[];
}

let stack: LocalStack;
let receiver: CompletedWebhooks<Completed>;
const childLogs: string[] = [];

/** Resolves with the first `call.completed` webhook whose call matches (event-driven, no polling). */
const completed = (match: (call: Completed) => boolean) => receiver.completed(match);

beforeAll(async () => {
  receiver = await startCompletedWebhooks<Completed>();
  stack = await startLocalStack({
    apiPort: 0,
    mediaPort: 0,
    mediaTasks: 2,
    infra: await localStackInfra(),
    mediaOutput: (line) => childLogs.push(line),
  });
}, CALL_TEST_MS);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

/** A business with one assistant (webhooks to the receiver) and one sandbox number answered by it. */
async function newBusiness() {
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness(`Tasks ${randomUUID().slice(0, 8)}`, 100);
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${business.api_key}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  const config = {
    first_message: 'Hello, this is Acme.',
    advanced: { ...QUIET, max_duration_s: 60, server_url: receiver.url, server_events: ['call.completed'] },
  };
  const created = await api('POST', '/assistants', { name: 'Front desk', template: 'receptionist', config });
  expect(created.status, await created.clone().text()).toBe(200);
  const assistantId = ((await created.json()) as { id: number }).id;
  const number = uniqueNumber();
  await admin.addNumber(business.business_id, { number, provider: 'sandbox', assistantId, label: 'main' });
  /** A scripted callee on a fresh number, called through POST /calls. */
  const call = async (steps: readonly ScenarioStep[]) => {
    const to = uniqueNumber();
    stack.media.carrier.registerScenario(to, scenario(`callee ${to}`, steps));
    const response = await api('POST', '/calls', { assistant_id: assistantId, to });
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { id: number }).id;
  };
  return { number, call };
}

const byAssistant = endedByAssistant;
const byCaller = endedByCaller;

describe('MEDIA_TASKS=2: two call-engine processes behind the round-robin proxy', () => {
  it(
    'serves outbound and inbound calls on both processes, and a new call on the survivor after one is killed',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange
      onTestFailed(() => console.error(`The call-engine processes' log:\n${childLogs.join('\n')}`));
      const { media } = stack;
      const business = await newBusiness();
      expect(media.tasks.map((task) => task.pid)).not.toContain(process.pid);
      // Act: one inbound call through the carrier's voice webhook (the proxy), answered first, then
      // two outbound calls through the API while it runs
      const caller = uniqueNumber();
      const { callSid } = media.carrier.startInboundCall({
        from: caller,
        to: business.number,
        voiceUrl: `${media.mediaUrl}/twilio/voice`,
        scenario: scenario('inbound', [waitForAssistant(), step.say('Sorry, wrong number.'), step.pause(4000), step.hangup()]),
      });
      await media.carrier.waitFor(callSid, (call) => call.streams.length > 0, CALL_HANG_MS);
      const plans = [
        ['assistant_ended', byAssistant()],
        ['caller_hung_up', byCaller()],
      ] as const;
      const ids = await Promise.all(plans.map(([, steps]) => business.call(steps)));
      const outbound = await Promise.all(ids.map((id) => completed((call) => call.id === id)));
      const inbound = await completed((call) => call.direction === 'inbound' && call.from_number === caller);
      // Assert: every call ended once, by its own session, with its transcript and true reason
      outbound.forEach((call, i) => expect(call.ended_reason, `call ${call.id}`).toBe(plans[i]![0]));
      expect(inbound.ended_reason).toBe('caller_hung_up');
      for (const call of [...outbound, inbound]) {
        expect(call.transcript[0], `call ${call.id}`).toMatchObject({ role: 'assistant', text: 'Hello, this is Acme.' });
        expect(call.transcript.some((entry) => entry.role === 'user')).toBe(true);
        const ranOn = media.tasks.filter((task) => task.sessions.includes(call.id));
        expect(ranOn, `call ${call.id} ran its session on exactly one process`).toHaveLength(1);
      }
      // Both processes took the carrier's traffic (callbacks and streams alternate).
      expect(media.tasks.map((_, i) => stack.media.proxy!.counts[i]! > 0)).toEqual([true, true]);

      // Act: kill a process that served calls, while idle; a new call goes through the other. (An
      // outbound call placed now may wait out the queue's 60 s visibility timeout, when the killed
      // process's pending long poll had taken its job, as with SQS: left out to keep the suite fast.)
      const victim = media.tasks.find((task) => task.sessions.length > 0)!;
      const survivor = media.tasks.find((task) => task !== victim)!;
      process.kill(victim.pid, 'SIGKILL');
      expect(await victim.exit).toBe('SIGKILL');
      const afterCaller = uniqueNumber();
      media.carrier.startInboundCall({
        from: afterCaller,
        to: business.number,
        voiceUrl: `${media.mediaUrl}/twilio/voice`,
        scenario: scenario('inbound after', byCaller()),
      });
      const inboundAfter = await completed((call) => call.direction === 'inbound' && call.from_number === afterCaller);
      // Assert: the dev stack carried on; the survivor ran the new call, so both processes served calls
      for (const call of [inboundAfter]) {
        expect(call.ended_reason, `call ${call.id}`).toBe('caller_hung_up');
        expect(call.transcript[0], `call ${call.id}`).toMatchObject({ role: 'assistant', text: 'Hello, this is Acme.' });
        expect(survivor.sessions).toContain(call.id);
        expect(victim.sessions).not.toContain(call.id);
      }
    },
  );

  it(
    'a call-engine process drains and exits when its parent is gone (its IPC channel closes): no orphans',
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange: one more process, started as npm run dev starts them
      const { media } = stack;
      const env = {
        ...localMediaEnv(stack.info, { port: 0, publicBaseUrl: media.mediaUrl, streamTokenSecret: randomBytes(32).toString('base64url') }),
        DEEPGRAM_BASE_URL: media.deepgramUrl,
        OPENAI_BASE_URL: media.openAiUrl,
        TWILIO_BASE_URL: media.carrierUrl,
        STRIPE_API_URL: media.paymentsUrl,
        SES_ENDPOINT: media.mailUrl,
      };
      const lines: string[] = [];
      const child = spawnMediaTask(3, env, (line) => lines.push(line));
      const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
      await new Promise<void>((resolve) => child.on('message', (message: { type?: string }) => message.type === 'ready' && resolve()));
      // Act: the channel closes, as when the parent crashes or is killed with -9
      child.disconnect();
      // Assert
      expect(await exit).toBe(0);
      expect(lines.some((line) => line.includes('"message":"media.stopping"') && line.includes('"why":"parent gone"'))).toBe(true);
    },
  );
});
