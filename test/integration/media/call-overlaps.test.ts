import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TALK_OVER } from '../../../media-service/src/sandbox/scenarios';
import { templateConfig } from '../../../shared/domain/templates';
import type { SandboxCallRecord } from '../../../media-service/src/sandbox/carrier-types';
import { uniqueNumber } from '../../support/api-harness';
import { CALL_TEST_MS } from '../../support/call-limits';
import { carrierCall, getCall, placeCall } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Whole calls where two features meet, with the default notices on (recording, its notice and the
 * AI disclosure: the receptionist template's defaults): an outbound call reaching an answering
 * machine, and a caller who talks over the greeting and notice (issue 31).
 */
let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ llm: { realtime: { msPerChar: 25, firstAudioDelayMs: 20 } } });
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS, concurrent: true };
type Entry = { role: string; text: string; start_ms: number; end_ms: number; interrupted?: boolean };

const MESSAGE = 'Hi, this is Acme Dental with a reminder about your cleaning on Friday. Please call us back to confirm.';
/** With the AI disclosure on, the message opens with who is calling and that it is an AI (docs/decisions.md "What a voicemail owes the law"). */
const LEFT = new RegExp(`^This is an AI assistant calling for Biz \\w+\\. ${MESSAGE.replace(/[.?]/g, '\\$&')}$`);
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The receptionist template's config (its greeting, silence timeout and idle messages; notices at their defaults), with `advanced` changes. */
function receptionist(changes: { mode?: 'standard' | 'live'; advanced: Record<string, unknown> }) {
  const template = templateConfig('receptionist') as { advanced: Record<string, unknown> };
  return { ...template, ...(changes.mode && { mode: changes.mode }), advanced: { ...template.advanced, ...changes.advanced } };
}

/** When the machine's greeting is over: the beep's end, or the quiet its AMD verdict follows. */
function greetingOverMs(carrier: SandboxCallRecord): number {
  const steps = carrier.callee!.steps;
  const end = steps.find((s) => s.kind === 'beep') ?? steps.find((s) => s.kind === 'amd');
  return end!.endMs!;
}

describe('outbound to an answering machine, default notices on', () => {
  it.each([
    { number: '+15005550003', machine: 'greeting and beep', answeredBy: 'machine_end_beep' },
    { number: '+15005550015', machine: 'a 12 s greeting and beep', answeredBy: 'machine_end_beep' },
    { number: '+15005550016', machine: 'a greeting and no beep', answeredBy: 'machine_end_silence' },
  ])('$machine ($number): silent through the greeting, the message left whole after it, then hang-up', T, async (c) => {
    // Act
    const { tenant, callId, to } = await placeCall(stack, receptionist({ advanced: { voicemail_message: MESSAGE } }), c.number);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert: the call ends voicemail
    expect(call.ended_reason).toBe('voicemail');
    const carrier = carrierCall(stack, to);
    expect(carrier.amd?.answeredBy).toBe(c.answeredBy);
    const callee = carrier.callee!;
    // No assistant audio reached the line while the machine's greeting played.
    const greeting = callee.said[0]!;
    const diagnosis = JSON.stringify({ heard: callee.heardSpeech, greeting, recorded: callee.recorded, transcript: detail.transcript });
    expect(
      callee.heardSpeech.filter((run) => run.startMs < greeting.endMs!),
      diagnosis,
    ).toEqual([]);
    // What the machine recorded is the message, whole, and nothing else (no greeting, no notice).
    expect(callee.recorded).toBeDefined();
    expect(words(callee.recorded!.text), diagnosis).toMatch(LEFT);
    expect(callee.recorded!.cut).toBe(false);
    expect(callee.heardSpeech.every((run) => run.startMs >= greetingOverMs(carrier) - 20)).toBe(true);
    // Then the assistant hung up (the machine never does).
    expect(carrier.endedBy).toBe('api');
    expect(callee.hungUpAtMs).toBeUndefined();
    const said = (detail.transcript as Entry[]).filter((entry) => entry.role === 'assistant');
    expect(said.map((entry) => words(entry.text))).toEqual([expect.stringMatching(LEFT)]);
  });
});

/** The hours answer of the sandbox model (sandbox-llm-script.ts): the reply to "are you open on Saturday mornings?". */
const HOURS = "We're open Monday through Friday from nine to five, and Saturday mornings until noon.";
/** The receptionist template's `silence_timeout_s`. */
const SILENCE_TIMEOUT_S = 12;

describe.each(['standard', 'live'] as const)('%s mode: a caller who talks over the greeting and notice', (mode) => {
  it('is answered on what they said once the notice ends, with their words kept and no dead air', T, async () => {
    // Arrange
    const to = uniqueNumber();
    stack.carrier.registerScenario(to, TALK_OVER);
    // Act
    const { tenant, callId } = await placeCall(stack, receptionist({ mode, advanced: {} }), to);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert: the caller's words are kept
    const transcript = detail.transcript as Entry[];
    const asked = transcript.find((entry) => entry.role === 'user' && /are you open on Saturday mornings/i.test(entry.text));
    expect(asked, JSON.stringify(transcript)).toBeDefined();
    // The notice was heard whole, and the first thing said after it answers the question.
    const notice = transcript.find((entry) => entry.role === 'assistant' && /This call is recorded\./.test(entry.text))!;
    expect(notice).toMatchObject({ interrupted: false });
    expect(asked!.start_ms).toBeLessThan(notice.end_ms);
    const after = transcript.filter((entry) => entry.role === 'assistant' && entry.start_ms >= notice.end_ms);
    expect(after[0]?.text, JSON.stringify(transcript)).toBe(HOURS);
    expect(await getCall(tenant, callId)).toMatchObject({ recording_notice_heard: true, ai_disclosure_heard: true });
    // No quiet longer than the silence timeout went by without the assistant speaking.
    const sorted = [...transcript].sort((a, b) => a.start_ms - b.start_ms);
    let lastEnd = 0;
    for (const entry of sorted) {
      expect(entry.start_ms - lastEnd, JSON.stringify(entry)).toBeLessThanOrEqual(SILENCE_TIMEOUT_S * 1000);
      lastEnd = Math.max(lastEnd, entry.end_ms);
    }
    // The call ends by its goodbye, never silence_timeout.
    expect(call.ended_reason).not.toBe('silence_timeout');
    expect(['caller_hung_up', 'assistant_ended']).toContain(call.ended_reason);
  });
});
