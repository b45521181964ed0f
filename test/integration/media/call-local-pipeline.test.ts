import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminService } from '../../../functions/lib/deps';
import { scenario, step, type ScenarioStep } from '../../../media-service/src/sandbox/scenario-script';
import type { ReceivedLlmRequest } from '../../../media-service/src/sandbox/openai-server';
import { startLocalStack, type LocalStack } from '../../../scripts/local/stack';
import { keys } from '../../../shared/db/table';
import { CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { QUIET, waitForAssistant } from '../../support/call-scenarios';
import { localStackInfra } from '../../support/local-stack-infra';
import { startCompletedWebhooks, type CompletedWebhooks } from '../../support/completed-webhooks';

/**
 * The after-call pipeline of `npm run dev`, as it runs (`startLocalStack`: API, call engine,
 * sandbox carrier and providers, local event router, analysis, webhooks), driven by simulated
 * callers ringing in: the sandbox analysis reads the transcript (summary, intent, caller name,
 * outcome, score), `advanced.memory` carries a call's summary into the same caller's next call,
 * and an `advanced.hipaa` call is analysed although nothing of its transcript is stored or logged.
 * Each call is awaited on its signed `call.completed` webhook (event-driven, no polling).
 */

interface Completed {
  id: number;
  from_number: string;
  summary: string;
  intent: string;
  caller_name: string | null;
  outcome: string | null;
  score: number | null;
  analysis: { structured_data?: Record<string, unknown> };
  transcript: { role: string; text: string }[];
  recording_url: string | null;
}

let stack: LocalStack;
let receiver: CompletedWebhooks<Completed>;
/** Every line the whole stack wrote to stderr (the Logger's sink) while this file ran, at DEBUG (printed if a test fails). */
const logged: string[] = [];
const stderrWrite = process.stderr.write.bind(process.stderr);
const logLevel = process.env.LOG_LEVEL;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'DEBUG';
  process.stderr.write = ((chunk: string | Uint8Array) => {
    logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stderr.write;
  receiver = await startCompletedWebhooks<Completed>();
  stack = await startLocalStack({ apiPort: 0, mediaPort: 0, mediaTasks: 1, infra: await localStackInfra() });
}, CALL_TEST_MS);

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  process.stderr.write = stderrWrite;
  if (logLevel === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = logLevel;
});

/** A business whose one number is answered by a receptionist with these `advanced` (and `analysis`) settings. */
async function newBusiness(advanced: Record<string, unknown>, analysis: Record<string, unknown> = {}) {
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness(`Pipeline ${randomUUID().slice(0, 8)}`, 100);
  const config = {
    first_message: 'Hello, this is Acme.',
    analysis,
    advanced: { ...QUIET, max_duration_s: 60, server_url: receiver.url, server_events: ['call.completed'], ...advanced },
  };
  const created = await fetch(`${stack.apiUrl}/assistants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${business.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Front desk', template: 'receptionist', config }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const assistantId = ((await created.json()) as { id: number }).id;
  const number = uniqueNumber();
  await admin.addNumber(business.business_id, { number, provider: 'sandbox', assistantId, label: 'main' });
  /** A simulated person rings the number from `from`; resolves with the analysed call's webhook. */
  const callIn = (from: string, steps: readonly ScenarioStep[]) => {
    const before = receiver.received.length;
    stack.media.carrier.startInboundCall({
      from,
      to: number,
      voiceUrl: `${stack.media.mediaUrl}/twilio/voice`,
      scenario: scenario('caller', steps),
    });
    return receiver.completed((call) => call.from_number === from && receiver.received.indexOf(call) >= before);
  };
  return { businessId: business.business_id, callIn };
}

/** The chat requests (replies, not the analysis) where the caller said `marker`. */
function replyRequestsWith(marker: string): ReceivedLlmRequest[] {
  return stack.afterCall.llmSandbox!.requests.filter(
    (request) =>
      request.request !== undefined &&
      request.request.response_format === undefined &&
      request.request.messages.some((message) => message.role === 'user' && JSON.stringify(message.content).includes(marker)),
  );
}

function systemPrompt(request: ReceivedLlmRequest): string {
  const system = request.request?.messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

// The three calls are independent (a business and a caller each), so they run side by side.
describe.concurrent('the local after-call pipeline (npm run dev)', () => {
  it(
    "reads the call (summary, intent, name, outcome, score) and remembers it for the caller's next call",
    { timeout: CALL_TEST_MS },
    async ({ onTestFailed }) => {
      // Arrange
      onTestFailed(() => console.error(`stack log:\n${logged.join('')}`));
      const business = await newBusiness({ memory: true });
      const caller = uniqueNumber();
      // Act: a first call, analysed and remembered
      const first = await business.callIn(caller, [
        waitForAssistant(),
        step.say('Hi, this is Sam. Are you open on Saturday mornings?'),
        waitForAssistant(),
        step.say('Great, thank you. Goodbye!'),
        waitForAssistant(),
        step.hangup(),
      ]);
      // Assert: the sandbox analysis read the caller's turns, not the greeting
      expect(first).toMatchObject({ caller_name: 'Sam', intent: 'Opening hours', outcome: 'resolved', score: 8 });
      expect(first.summary).toBe(
        'The caller, Sam, asked: "Are you open on Saturday mornings?". The assistant answered the request. The caller ended the call politely.',
      );
      // Act: the same number calls again
      const second = await business.callIn(caller, [
        waitForAssistant(),
        step.say('Hello again, it is me about Saturday.'),
        waitForAssistant(),
        step.hangup(),
      ]);
      // Assert: the second call's model prompt carries what the first left behind; the first had none
      const secondPrompts = replyRequestsWith('Hello again, it is me about Saturday.').map(systemPrompt);
      expect(secondPrompts.length).toBeGreaterThan(0);
      for (const prompt of secondPrompts) {
        expect(prompt).toContain('Earlier calls with this caller (newest first):');
        expect(prompt).toContain(`${first.summary} (outcome: resolved)`);
      }
      const firstPrompts = replyRequestsWith('Are you open on Saturday mornings?').map(systemPrompt);
      expect(firstPrompts.length).toBeGreaterThan(0);
      for (const prompt of firstPrompts) expect(prompt).not.toContain('Earlier calls with this caller');
      expect(second.id).toBeGreaterThan(first.id);
    },
  );

  it('an answering machine that rang in is never resolved', { timeout: CALL_TEST_MS }, async () => {
    // Arrange
    const business = await newBusiness({});
    // Act
    const call = await business.callIn(uniqueNumber(), [
      step.say("Hi, you've reached Jordan Lee. I can't take your call right now. Please leave a message after the tone."),
      step.pause(300),
      step.beep(),
      step.pause(1500),
      step.hangup(),
    ]);
    // Assert
    expect(call).toMatchObject({ outcome: 'unresolved', score: 1, caller_name: null });
    expect(call.summary).toBe('The call reached a voicemail greeting; nobody spoke with the assistant.');
  });

  it(
    'a HIPAA call gets a real, redacted analysis while its transcript is in no table item, recording or log line',
    { timeout: CALL_TEST_MS },
    async ({ onTestFailed }) => {
      // Arrange
      onTestFailed(() => console.error(`stack log:\n${logged.join('')}`));
      const structured = [
        { name: 'caller_name', type: 'string' },
        { name: 'date_of_birth', type: 'string', description: "The caller's date of birth" },
      ];
      const business = await newBusiness({ hipaa: true, recording: true, memory: true }, { structured });
      const caller = uniqueNumber();
      // Act
      const call = await business.callIn(caller, [
        waitForAssistant(),
        step.say('Hi, this is Sam. I need my inhaler refilled, can you help?'),
        waitForAssistant(),
        step.say('My date of birth is March 3, 1985. My locker code is blue seven.'),
        waitForAssistant(),
        step.say('Thanks, goodbye.'),
        waitForAssistant(),
        step.hangup(),
      ]);
      // Assert: analysed from the redacted transcript
      expect(call.transcript).toEqual([]);
      expect(call.recording_url).toBeNull();
      expect(call).toMatchObject({
        summary: expect.stringContaining('The caller, Sam, asked: "I need my inhaler refilled, can you help?".'),
        intent: 'I need my inhaler refilled, can you help',
        caller_name: 'Sam',
        outcome: 'unresolved',
        score: 4,
      });
      expect(call.analysis.structured_data).toEqual({ caller_name: 'Sam', date_of_birth: 'My date of birth is [dob].' });
      // Assert: the clear transcript is nowhere (what the caller said that the analysis does not quote, and the birth date)
      const clear = ['March 3, 1985', 'locker code', 'blue seven'];
      const items = await businessItems(business.businessId);
      expect(items.length).toBeGreaterThan(0);
      for (const text of clear) {
        expect(
          items.filter((item) => item.includes(text)),
          text,
        ).toEqual([]);
        expect(
          logged.filter((line) => line.includes(text)),
          text,
        ).toEqual([]);
      }
      expect(logged.filter((line) => line.includes('inhaler'))).toEqual([]);
      expect(await recordingsOf(business.businessId)).toEqual([]);
      expect(await stack.core.callerMemory.recall(business.businessId, caller)).toEqual([]);
    },
  );
});

/** Every table item in the business's partitions, as JSON text. */
async function businessItems(businessId: number): Promise<string[]> {
  const items: string[] = [];
  const pages = paginateScan(
    { client: stack.core.db.doc },
    {
      TableName: stack.core.db.tableName,
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': keys.business(businessId).pk },
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []).map((item) => JSON.stringify(item)));
  return items;
}

/** The recording objects stored for the business (their keys start with its id). */
async function recordingsOf(businessId: number): Promise<string[]> {
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: stack.info.sqsEndpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: stack.info.recordingsBucket, Prefix: `recordings/${businessId}/` }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}
