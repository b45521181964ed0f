import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, carrierCall, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

let stack: CallStack;

beforeAll(async () => {
  // The sandbox voice at 25 ms per character, as the stack's Aura: replies play 2.5× faster than speech.
  stack = await startCallStack({ llm: { realtime: { msPerChar: 25, firstAudioDelayMs: 20 } } });
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
const LONG_GREETING =
  "Hello! I'm calling from Acme Dental to remind you about your appointment next week, and to go over a few details about parking, paperwork and what to bring with you.";

/** The sandbox Realtime connection that served the carrier call placed to `to`. */
function realtimeOf(to: string) {
  const sid = carrierCall(stack, to).sid;
  const connection = stack.openai.realtime.connections.find((candidate) => candidate.tag === sid);
  if (!connection) throw new Error(`no realtime connection for ${sid}`);
  return connection;
}

describe.concurrent('live mode (speech-to-speech over the sandbox Realtime endpoint)', () => {
  it('a live call: verbatim greeting, a question answered, goodbye + end_call; transcript and metrics', T, async () => {
    // Arrange
    const config = {
      mode: 'live',
      live_voice: 'cedar',
      first_message: 'Hi, this is Acme Dental calling about your visit.',
      advanced: QUIET,
    };
    const steps = [
      waitForAssistant(),
      step.say('Are you open on Saturday mornings?'),
      waitForAssistant(),
      step.say('Great, thank you. Goodbye!'),
      waitForAssistant(),
      step.hangup(),
    ];
    // Act
    const { tenant, callId, to } = await callScripted(stack, config, steps);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call).toMatchObject({ status: 'ended', ended_reason: 'assistant_ended' });
    expect(detail.transcript.map(({ role, text, interrupted }) => ({ role, text, interrupted }))).toEqual([
      { role: 'assistant', text: 'Hi, this is Acme Dental calling about your visit.', interrupted: false },
      { role: 'user', text: 'Are you open on Saturday mornings?', interrupted: false },
      {
        role: 'assistant',
        text: "We're open Monday through Friday from nine to five, and Saturday mornings until noon.",
        interrupted: false,
      },
      { role: 'user', text: 'Great, thank you. Goodbye!', interrupted: false },
      { role: 'assistant', text: 'Thank you for your time. Have a great day, goodbye!', interrupted: false },
      { role: 'tool', text: 'end_call', interrupted: false },
    ]);
    const metrics = detail.metrics as Record<string, any>;
    expect(metrics.turns).toHaveLength(2);
    for (const turn of metrics.turns) expect(turn.latency_ms).toBeGreaterThan(0);
    expect(metrics.llm_tokens.output).toBeGreaterThan(0);
    expect(metrics).toMatchObject({ interruptions: 0, tts_characters: 0 });
    expect(stack.deepgram.fluxConnections.some((flux) => flux.query.tag === carrierCall(stack, to).sid)).toBe(false);
    expect(realtimeOf(to).session).toMatchObject({ audio: { output: { voice: 'cedar' } } });
  });

  it('barge-in: clear sent, the response cancelled, the item truncated to what was heard, the transcript cut', T, async () => {
    // Arrange
    const config = { mode: 'live', first_message: LONG_GREETING, advanced: { ...QUIET, interruptions: 'anytime' } };
    const steps = [
      step.bargeIn('Sorry, what are your hours?', { afterAssistantStartsMs: 1000 }),
      waitForAssistant(),
      step.say('Thanks, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ];
    // Act
    const { tenant, callId, to } = await callScripted(stack, config, steps);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(carrierCall(stack, to).streams[0]!.clears.length).toBeGreaterThanOrEqual(1);
    const connection = realtimeOf(to);
    expect(connection.truncations.length).toBeGreaterThanOrEqual(1);
    for (const truncation of connection.truncations) {
      expect(truncation.refused).toBe(false);
      expect(truncation.audioEndMs).toBeLessThanOrEqual(truncation.generatedMs);
    }
    expect(connection.truncations[0]!.audioEndMs).toBeGreaterThan(0);
    const greeting = detail.transcript.find((entry) => entry.role === 'assistant')!;
    expect(greeting.interrupted).toBe(true);
    expect(greeting.text.length).toBeLessThan(LONG_GREETING.length);
    expect(LONG_GREETING.startsWith(greeting.text)).toBe(true);
    expect((detail.metrics as { interruptions: number }).interruptions).toBe(1);
  });

  it('keypad: digits reach the Realtime model as a typed caller message and get an answer', T, async () => {
    // Arrange
    const config = { mode: 'live', first_message: 'Please enter your code.', advanced: QUIET };
    const steps = [waitForAssistant(), step.dtmf('42#', { gapMs: 100 }), waitForAssistant(), step.hangup()];
    // Act
    const { tenant, callId, to } = await callScripted(stack, config, steps);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(JSON.stringify(realtimeOf(to).received)).toContain('{"type":"input_text","text":"[keypad] 4 2 #"}');
    const lines = detail.transcript.map(({ role, text }) => `${role}: ${text}`);
    expect(lines[1]).toBe('user: [keypad] 4 2 #');
    expect(lines[2]).toMatch(/^assistant: /);
  });

  it(
    "a caller who hangs up right after their last words: they are in the transcript (the hang-up waits for Realtime's transcription)",
    T,
    async () => {
      // Arrange
      const config = { mode: 'live', first_message: 'Hello, Acme Plumbing.', advanced: QUIET };
      const steps = [waitForAssistant(), step.say('Thanks, bye.'), step.hangup()];
      // Act
      const { tenant, callId } = await callScripted(stack, config, steps);
      const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      expect(detail.transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual(['Thanks, bye.']);
    },
  );

  it(
    "tools: take_message runs from the caller's words, its output goes back as a function_call_output, and the model speaks it",
    T,
    async () => {
      // Arrange
      const config = { mode: 'live', first_message: 'Hello, Acme Plumbing.', advanced: QUIET };
      const steps = [
        waitForAssistant(),
        step.say('Hi, this is Jordan Lee. Can you take a message for Dana: the boiler is leaking.'),
        step.waitForAssistant({ quietMs: 1500, timeoutMs: 15_000 }),
        step.hangup(),
      ];
      // Act
      const { tenant, callId } = await callScripted(stack, config, steps);
      const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      expect(detail.actions).toEqual([
        expect.objectContaining({
          name: 'take_message',
          ok: true,
          arguments: { name: 'Jordan Lee', message: 'For Dana: the boiler is leaking.', urgent: false },
        }),
      ]);
      const messages = (await (await tenant.request('GET', `/messages?call_id=${callId}`)).json()) as { data: { body: string }[] };
      expect(messages.data.map((message) => message.body)).toEqual(['For Dana: the boiler is leaking.']);
      expect(detail.transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text)).toContain(
        "I've saved your message for the team. Is there anything else I can help you with?",
      );
    },
  );
});
