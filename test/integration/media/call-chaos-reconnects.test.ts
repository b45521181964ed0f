import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_NUMBERS } from '../../../media-service/src/sandbox/sandbox-numbers';
import { CALL_TEST_MS } from '../../support/call-limits';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Chaos, the recogniser's socket on the OpenAI side: `+15005550010` through a whole call whose
 * recogniser is OpenAI's, with `transcriber.provider: "openai"` (its transcription socket drops)
 * and in `mode: "live"` (the Realtime session's socket drops once the reply to the first turn has
 * started). Each must reconnect within 1 s and go on with every later word heard and answered
 * (docs/design.md "Provider faults"). The notices are on, as by default: the greeting, the AI
 * disclosure and the recording notice are said before the caller's first turn.
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
const FAULT_NUMBER = SANDBOX_NUMBERS.find((entry) => entry.line.kind === 'answer' && entry.line.fault === 'stt-drop')!.number;
/** What the patient callee of a fault number says, one turn at a time. */
const CALLER = [
  'Hello, this is Sam speaking.',
  'Sure. Before that, are you open on Saturday mornings?',
  'Tuesday at ten works for me.',
  'Great, thank you. Goodbye!',
];

/** The sandbox model's answer to the caller's first turn: the reply under way when the live socket drops. */
const FIRST_REPLY = 'I understand, you said: Hello, this is Sam speaking. I can help with that. Could you tell me a little more?';

type Entry = { role: string; text: string; start_ms: number; end_ms: number };
const said = (transcript: Entry[], role: string) => transcript.filter((entry) => entry.role === role).map((entry) => entry.text);

async function callFaultNumber(config: Record<string, unknown>) {
  const tenant = await stack.api.newTenant({ minutes: 100 });
  const assistant = await tenant.request('POST', '/assistants', {
    name: 'Chaos',
    template: 'receptionist',
    config: { first_message: 'Hello, Acme Dental.', ...config },
  });
  expect(assistant.status, await assistant.clone().text()).toBe(200);
  const placed = await tenant.request('POST', '/calls', {
    assistant_id: ((await assistant.json()) as { id: number }).id,
    to: FAULT_NUMBER,
  });
  expect(placed.status, await placed.clone().text()).toBe(200);
  const callId = ((await placed.json()) as { id: number }).id;
  const ended = await stack.whenCallEnded(tenant.businessId, callId);
  const transcript = ended.detail.transcript as Entry[];
  const faults = (ended.detail.metrics as { faults: Record<string, number> }).faults;
  const [log] = stack.logs.filter(
    (line) => line.message === 'call.provider.fault' && line.fields?.call_id === callId && line.fields?.kind === 'stt_reconnects',
  );
  const detail = String(log?.fields?.detail);
  const failed = stack.logs.filter((line) => line.message === 'call.provider.failed' && line.fields?.call_id === callId);
  return { call: ended.call, transcript, faults, detail, failed };
}

/** Every caller turn but the goodbye is answered: an assistant line starts after it ends. */
function answeredAfterDrop(transcript: Entry[]): boolean {
  const users = transcript.filter((entry) => entry.role === 'user').slice(0, -1);
  return users.every((user) =>
    transcript.some((entry) => entry.role === 'assistant' && entry.start_ms >= user.end_ms && entry.text !== ''),
  );
}

/** How long after the caller's first turn (the drop) the assistant's next line started, ms: no dead air. */
function firstAnswerMs(transcript: Entry[]): number {
  const first = transcript.find((entry) => entry.role === 'user')!;
  const answer = transcript.find((entry) => entry.role === 'assistant' && entry.start_ms >= first.end_ms)!;
  return answer.start_ms - first.end_ms;
}

describe.concurrent('chaos: the OpenAI recogniser sockets drop', () => {
  it(
    '+15005550010, transcriber.provider openai: the transcription socket drops; a new one within 1 s hears every later word',
    T,
    async () => {
      // Act
      const { call, transcript, faults, detail, failed } = await callFaultNumber({ transcriber: { provider: 'openai' } });
      console.log(`openai transcription, whole call: ${detail}`);
      // Assert
      expect(call.ended_reason, JSON.stringify(failed)).toBe('assistant_ended');
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(answeredAfterDrop(transcript)).toBe(true);
      expect(firstAnswerMs(transcript)).toBeLessThan(3000);
      expect(faults).toMatchObject({ stt_reconnects: 1, tts_reconnects: 0, model_errors: 0 });
      expect(Number(/Reconnected in (\d+) ms/.exec(detail)?.[1])).toBeLessThan(1000);
      expect(stack.openai.realtime.transcriptions.some((record) => record.dropped)).toBe(true);
      expect(stack.deepgram.fluxConnections.some((flux) => flux.dropped)).toBe(false);
    },
  );

  it(
    '+15005550010, mode live: the Realtime socket drops mid-reply; a new one within 1 s finishes it and hears every later word',
    T,
    async () => {
      // Act
      const { call, transcript, faults, detail, failed } = await callFaultNumber({ mode: 'live' });
      console.log(`openai realtime, whole call: ${detail}`);
      console.log(
        JSON.stringify(
          transcript.map((entry) => `${entry.role}@${entry.start_ms}: ${entry.text}`),
          null,
          1,
        ),
      );
      // Assert
      expect(call.ended_reason, JSON.stringify(failed)).toBe('assistant_ended');
      expect(said(transcript, 'user')).toEqual(CALLER);
      expect(answeredAfterDrop(transcript)).toBe(true);
      expect(firstAnswerMs(transcript)).toBeLessThan(3000);
      expect(faults).toMatchObject({ stt_reconnects: 1, tts_reconnects: 0, model_errors: 0 });
      expect(Number(/Reconnected in (\d+) ms/.exec(detail)?.[1])).toBeLessThan(1000);
      expect(stack.openai.realtime.connections.some((record) => record.dropped)).toBe(true);
      // The reply under way at the drop was asked again: the caller hears it once, whole.
      expect(said(transcript, 'assistant').filter((text) => text === FIRST_REPLY)).toHaveLength(1);
    },
  );
});
