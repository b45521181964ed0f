import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { VOICEMAIL } from '../../../media-service/src/sandbox/machine-scenarios';
import { uniqueNumber } from '../../support/api-harness';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, carrierCall, llmRequestsWith, placeCall, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

let stack: CallStack;
const SLOW = 'please think it over carefully';

beforeAll(async () => {
  // Replies to a caller whose last words are SLOW take 1.5 s to start, so a filler is due.
  const lastMessage = (body: unknown) => JSON.stringify((body as { messages?: unknown[] } | undefined)?.messages?.at(-1) ?? '');
  stack = await startCallStack({ llm: { ttftMs: (request) => (lastMessage(request.body).includes(SLOW) ? 1500 : 20) } });
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
const assistantLines = (transcript: { role: string; text: string }[]) =>
  transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text);

describe.concurrent('how calls end', () => {
  it('silence: an idle message after silence_timeout_s, then end_call_message and silence_timeout', T, async () => {
    // Act
    const config = {
      first_message: 'Hello.',
      advanced: {
        ...QUIET,
        silence_timeout_s: 5,
        idle_messages: ['Are you still there?'],
        idle_max: 1,
        end_call_message: 'Goodbye for now.',
      },
    };
    const { tenant, callId } = await callScripted(stack, config, [step.silence()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('silence_timeout');
    expect(assistantLines(detail.transcript)).toEqual(['Hello.', 'Are you still there?', 'Goodbye for now.']);
    const [, idle, goodbye] = detail.transcript;
    expect(idle!.start_ms - detail.transcript[0]!.end_ms).toBeGreaterThanOrEqual(5000);
    expect(goodbye!.start_ms - idle!.end_ms).toBeGreaterThanOrEqual(5000);
  });

  it('the caller’s last words before hanging up are kept, though the recogniser had not closed their turn', T, async () => {
    // Arrange: the caller says goodbye and hangs up at once, before any end of turn could come
    const steps = [waitForAssistant(), step.say('Thanks so much, bye now.'), step.hangup()];
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello from Acme.', advanced: QUIET }, steps);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('caller_hung_up');
    expect(detail.transcript.filter((entry) => entry.role === 'user').map((entry) => entry.text)).toEqual(['Thanks so much, bye now.']);
    expect(detail.transcript.at(-1)).toMatchObject({ role: 'user', text: 'Thanks so much, bye now.' });
  });

  it(
    'max duration is a hard limit: end_call_message starts before it and duration_s never passes max_duration_s',
    { timeout: CALL_TEST_MS },
    async () => {
      // Act
      const config = {
        first_message: 'Hello.',
        advanced: { ...QUIET, max_duration_s: 30, silence_timeout_s: 60, end_call_message: 'Our time is up, goodbye.' },
      };
      const { tenant, callId } = await callScripted(stack, config, [step.silence()]);
      const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      expect(call.ended_reason).toBe('max_duration');
      // The goodbye starts ~2.4 s before the hang-up (it plays in 0.6 s here); the hang-up is a hard stop, so a badly
      // overloaded machine may cut its last word, never the limit.
      expect(detail.transcript.at(-1)).toMatchObject({ role: 'assistant', text: expect.stringMatching(/^Our time is up/) });
      expect(call.duration_s).toBeGreaterThanOrEqual(27);
      expect(call.duration_s).toBeLessThanOrEqual(30);
      expect((detail.metrics as { duration_s: number }).duration_s).toBeLessThanOrEqual(30);
    },
  );

  it('voicemail: after the greeting and beep, voicemail_message is left and the call ends voicemail', T, async () => {
    // Act
    const config = {
      first_message: 'Hi, this is Acme Dental.',
      advanced: { ...QUIET, voicemail_message: 'Hi Jordan, this is Acme Dental. Please call us back.' },
    };
    // The +15005550003 voicemail, on a number of its own: the test below calls +15005550003 at the same time.
    const to = uniqueNumber();
    stack.carrier.registerScenario(to, VOICEMAIL);
    const { tenant, callId } = await placeCall(stack, config, to);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call).toMatchObject({ ended_reason: 'voicemail', outcome: 'voicemail' });
    expect(assistantLines(detail.transcript).at(-1)).toBe('Hi Jordan, this is Acme Dental. Please call us back.');
    const carrier = carrierCall(stack, to);
    expect(carrier.amd?.answeredBy).toBe('machine_end_beep');
    const message = detail.transcript.at(-1)!;
    const beepEndMs = carrier.callee!.steps.find((s) => s.kind === 'beep')!.endMs!;
    expect(message.start_ms).toBeGreaterThanOrEqual(beepEndMs - 100);
    // The machine recorded the message, whole (the sandbox reads its recording back as words).
    expect(carrier.callee!.recorded).toMatchObject({ text: 'Hi Jordan, this is Acme Dental. Please call us back.', cut: false });
  });

  it('voicemail without a message: the engine hangs up as soon as it knows', T, async () => {
    // Act
    const { tenant, callId } = await placeCall(stack, { first_message: 'Hi, this is Acme Dental.', advanced: QUIET }, '+15005550003');
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('voicemail');
    expect(
      assistantLines(detail.transcript).every((text) => text.startsWith('Hi, this is Acme') || 'Hi, this is Acme Dental.'.startsWith(text)),
    ).toBe(true);
  });

  it('fillers: a slow reply gets a filler, which stays out of the model history', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', advanced: QUIET }, [
      waitForAssistant(),
      step.say(`Hmm, ${SLOW} for me.`),
      waitForAssistant(),
      step.say('Thanks, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const lines = assistantLines(detail.transcript);
    expect(lines[1]).toBe('One moment.');
    expect((detail.metrics as unknown as { fillers: number }).fillers).toBe(1);
    const later = llmRequestsWith(stack, 'Thanks, goodbye.').map((request) => JSON.stringify(request.body));
    expect(later.length).toBeGreaterThan(0);
    for (const body of later) expect(body).not.toContain('One moment.');
  });

  it('wait_for_user: the assistant speaks only after the caller', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(
      stack,
      { first_message_mode: 'wait_for_user', first_message: 'Hello.', advanced: QUIET },
      [step.pause(800), step.say('Hello? Who is this?'), waitForAssistant(), step.hangup()],
    );
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.transcript[0]).toMatchObject({ role: 'user', text: 'Hello? Who is this?' });
    expect(detail.transcript[1]!.role).toBe('assistant');
  });

  it('model_generated: the model writes the greeting', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message_mode: 'model_generated', advanced: QUIET }, [
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.transcript[0]).toMatchObject({ role: 'assistant', text: 'Hello! I am calling from the team. Do you have a moment?' });
  });

  it('greet_after_silence_s: with wait_for_user, a silent caller is greeted after the delay', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(
      stack,
      { first_message_mode: 'wait_for_user', first_message: 'Hello?', advanced: { ...QUIET, greet_after_silence_s: 2 } },
      [waitForAssistant(), step.hangup()],
    );
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.transcript[0]).toMatchObject({ role: 'assistant', text: 'Hello?' });
    expect(detail.transcript[0]!.start_ms).toBeGreaterThanOrEqual(2000);
  });

  it('greeting_delay_ms delays the first message', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', advanced: { ...QUIET, greeting_delay_ms: 1500 } }, [
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.transcript[0]!.start_ms).toBeGreaterThanOrEqual(1500);
  });
});
