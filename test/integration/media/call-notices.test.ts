import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, carrierCall, getCall, placeCall, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/** A fault is injected into the shared sandbox Realtime server, so that call runs alone, after the others. */
let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ llm: { realtime: { msPerChar: 25, firstAudioDelayMs: 20 } } });
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
/** The calls that inject no fault run side by side. */
const SIDE_BY_SIDE = { ...T, concurrent: true };
// These calls are placed (outbound) but test the notices as on any call: voicemail detection off, so
// the greeting starts after greeting_delay_ms (an outbound call that listens for a machine first:
// call-overlaps.test.ts).
const NOTICES = { recording: true, recording_notice: true, ai_disclosure: true, interruptions: 'anytime', voicemail_detection: false };
const GREETING = 'Hi, this is Acme calling. How can I help you today?';
/** Its words before the question and the notice take ~6 s to say: keys and a hang-up 2 s in land inside them, whatever the load. */
const LONG_GREETING =
  'Hi, this is Acme Dental calling, the friendliest dental practice in the whole city, open six days a week with late hours on Thursdays. How can I help you today?';
/** The greeting's words before its question, then the notice, said as one utterance. */
const FIRST_WORDS = /^Hi, this is Acme calling\. I'm an AI assistant for Biz \w+\. This call is recorded\.$/;
const NOTICE = /^I'm an AI assistant for Biz \w+\. This call is recorded\.$/;

type Entry = { role: string; text: string; start_ms: number; end_ms: number; interrupted: boolean };
const assistantLines = (transcript: Entry[]) => transcript.filter((entry) => entry.role === 'assistant');

describe('the recording notice and AI disclosure: before the question, uncuttable, repeated until heard', () => {
  it(
    'standard mode, the interrupter: talking over the notice does not cut it; the question waits, the caller is answered',
    SIDE_BY_SIDE,
    async () => {
      // Act: the sandbox interrupter talks at once, over the first words, and barges in again later.
      const { tenant, callId } = await placeCall(stack, { first_message: GREETING, advanced: NOTICES }, '+15005550004');
      const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
      const call = await getCall(tenant, callId);
      // Assert
      const transcript = detail.transcript as Entry[];
      const [first, reply] = assistantLines(transcript);
      expect(first!.text).toMatch(FIRST_WORDS);
      expect(first!.interrupted).toBe(false);
      expect(call).toMatchObject({ recording_notice_heard: true, ai_disclosure_heard: true });
      // The caller's words over the notice are answered after it, instead of the greeting's question.
      // Whether the caller's next barge-in joins those words into one turn depends on the machine's
      // pace; either way they start over the notice and the reply waits for the notice to end.
      const spokeOver = transcript.find((entry) => entry.role === 'user')!;
      expect(spokeOver.text).toMatch(/^Hi, who's calling\?/);
      expect(spokeOver.start_ms).toBeLessThan(first!.end_ms);
      expect(reply!.start_ms).toBeGreaterThanOrEqual(first!.end_ms);
      // (The reply itself may be cut at once by the interrupter's next barge-in.)
      expect(assistantLines(transcript).map((entry) => entry.text)).not.toContain('How can I help you today?');
      // A turn that ended while the notice still played was held, and its metrics row says so.
      const heldRow = (detail.metrics as { turns: { held?: boolean }[] }).turns[0]!;
      expect(heldRow.held === true).toBe(spokeOver.end_ms < first!.end_ms);
    },
  );

  it('standard mode, keypad: keys pressed during the notice do not cut it; the entry is answered after it', SIDE_BY_SIDE, async () => {
    // Act
    const steps = [step.pause(2000), step.dtmf('12#', { gapMs: 100 }), waitForAssistant(), step.say('Thanks, bye.'), step.hangup()];
    const { tenant, callId } = await callScripted(stack, { first_message: LONG_GREETING, advanced: NOTICES }, steps);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const transcript = detail.transcript as Entry[];
    const first = assistantLines(transcript)[0]!;
    expect(first).toMatchObject({ interrupted: false });
    expect(first.text).toMatch(/^Hi, this is Acme Dental calling, .* Thursdays\. I'm an AI assistant for .*\. This call is recorded\.$/);
    const keys = transcript.find((entry) => entry.role === 'user')!;
    expect(keys.text).toBe('[keypad] 1 2 #');
    expect(keys.start_ms).toBeLessThan(first.end_ms);
    // Answered after the notice, instead of the greeting's question.
    const after = assistantLines(transcript).filter((entry) => entry.start_ms >= first.end_ms);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.map((entry) => entry.text)).not.toContain('How can I help you today?');
    expect(await getCall(tenant, callId)).toMatchObject({ recording_notice_heard: true, ai_disclosure_heard: true });
  });

  it(
    'standard mode: a caller who hangs up during the notice did not hear it (false); a call with no notice due says null',
    SIDE_BY_SIDE,
    async () => {
      // Act
      const hungUp = await callScripted(stack, { first_message: LONG_GREETING, advanced: NOTICES }, [step.pause(2000), step.hangup()]);
      const quiet = await callScripted(stack, { first_message: GREETING, advanced: { recording: false, ai_disclosure: false } }, [
        waitForAssistant(),
        step.hangup(),
      ]);
      await stack.whenCallEnded(hungUp.tenant.businessId, hungUp.callId);
      const { detail } = await stack.whenCallEnded(quiet.tenant.businessId, quiet.callId);
      // Assert
      expect(await getCall(hungUp.tenant, hungUp.callId)).toMatchObject({ recording_notice_heard: false, ai_disclosure_heard: false });
      expect(await getCall(quiet.tenant, quiet.callId)).toMatchObject({ recording_notice_heard: null, ai_disclosure_heard: null });
      expect(assistantLines(detail.transcript as Entry[])[0]!.text).toBe(GREETING);
    },
  );

  it(
    'live mode: the provider cannot cut the notice (interrupt_response off until heard) and talking over it does not',
    SIDE_BY_SIDE,
    async () => {
      // Act
      const steps = [
        step.bargeIn('Sorry, who is this?', { afterAssistantStartsMs: 600 }),
        waitForAssistant(),
        step.say('Okay, bye.'),
        step.hangup(),
      ];
      const { tenant, callId, to } = await callScripted(stack, { mode: 'live', first_message: GREETING, advanced: NOTICES }, steps);
      const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      const first = assistantLines(detail.transcript as Entry[])[0]!;
      expect(first).toMatchObject({ interrupted: false });
      expect(first.text).toMatch(FIRST_WORDS);
      expect(await getCall(tenant, callId)).toMatchObject({ recording_notice_heard: true, ai_disclosure_heard: true });
      const sid = carrierCall(stack, to).sid;
      const connection = stack.openai.realtime.connections.find((candidate) => candidate.tag === sid)!;
      const vad = connection.received
        .filter((event) => event.type === 'session.update')
        .map((event) => JSON.stringify(event))
        .map((text) => /"interrupt_response":(true|false)/.exec(text)?.[1]);
      expect(vad).toEqual(['false', 'true']);
      expect(connection.truncations).toHaveLength(0);
    },
  );

  it('live mode: a notice the provider cut (a server error mid-audio) is said again, whole, before the question', T, async () => {
    // Arrange
    stack.openai.realtime.failNextResponse({ tag: 'notice', afterMs: 1500 });
    // Act
    const steps = [waitForAssistant(), step.say('Okay, bye.'), step.hangup()];
    const { tenant, callId } = await callScripted(stack, { mode: 'live', first_message: GREETING, advanced: NOTICES }, steps);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const lines = assistantLines(detail.transcript as Entry[]);
    expect(lines[0]).toMatchObject({ interrupted: true });
    expect(lines[0]!.text).toMatch(/^Hi, this is Acme calling\./);
    expect(lines[1]).toMatchObject({ interrupted: false });
    expect(lines[1]!.text).toMatch(NOTICE);
    expect(lines[2]).toMatchObject({ text: 'How can I help you today?', interrupted: false });
    expect(await getCall(tenant, callId)).toMatchObject({ recording_notice_heard: true, ai_disclosure_heard: true });
  });
});
