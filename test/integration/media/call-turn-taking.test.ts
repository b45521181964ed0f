import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, carrierCall, llmRequestsWith, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
const LONG_GREETING =
  "Hello! I'm calling from Acme Dental to remind you about your appointment next week, and to go over a few details about parking, paperwork and what to bring with you.";

async function run(advanced: Record<string, unknown>, steps: Parameters<typeof callScripted>[2], extra: Record<string, unknown> = {}) {
  const placed = await callScripted(stack, { first_message: LONG_GREETING, advanced: { ...QUIET, ...advanced }, ...extra }, steps);
  const ended = await stack.whenCallEnded(placed.tenant.businessId, placed.callId);
  return { ...placed, ...ended, carrier: carrierCall(stack, placed.to) };
}

const greetingOf = (transcript: { role: string; text: string; interrupted: boolean }[]) =>
  transcript.find((entry) => entry.role === 'assistant')!;

describe.concurrent('barge-in and interruption settings', () => {
  it(
    'barge-in: clear after the interrupting words and while the caller still speaks, no stale audio after it, history cut to what was heard',
    T,
    async () => {
      // Arrange
      const question = 'Sorry, can I stop you there? What are your hours?';
      const steps = [
        step.bargeIn(question, { afterAssistantStartsMs: 1000 }),
        waitForAssistant(),
        step.say('Thanks, goodbye.'),
        waitForAssistant(),
        step.hangup(),
      ];
      // Act
      const { detail, carrier } = await run({ interruptions: 'anytime' }, steps);
      // Assert
      const stream = carrier.streams[0]!;
      expect(stream.clears.length).toBeGreaterThanOrEqual(1);
      const clearAt = carrier.clockStartMs + stream.clears[0]!.atMs;
      const flux = stack.deepgram.fluxConnections.find((connection) => connection.query.tag === carrier.sid)!;
      const wordsAt = flux.sent.findIndex(
        (message) =>
          (message as { event?: string; transcript?: string }).event === 'Update' &&
          ((message as { transcript?: string }).transcript ?? '') !== '',
      );
      // Caused by the words, and in time: before the caller has finished the interrupting question.
      // (How fast, in ms, is a benchmark's business, not a test's: this file runs calls concurrently.)
      const bargeIn = carrier.callee!.said.find((line) => line.bargeIn)!;
      expect(clearAt - flux.sentAt[wordsAt]!).toBeGreaterThanOrEqual(0);
      expect(stream.clears[0]!.atMs).toBeLessThan(stream.openedAtMs! + bargeIn.endMs!);
      expect(stream.clears[0]!.firstMediaAfterMs!).toBeGreaterThan(stream.openedAtMs! + bargeIn.endMs!);
      const greeting = greetingOf(detail.transcript);
      expect(greeting.interrupted).toBe(true);
      expect(greeting.text.length).toBeLessThan(LONG_GREETING.length);
      expect(LONG_GREETING.startsWith(greeting.text)).toBe(true);
      const asked = llmRequestsWith(stack, question)[0]!.body as { messages: { role: string; content: string | null }[] };
      const historyGreeting = asked.messages.find((message) => message.role === 'assistant')!;
      expect(historyGreeting.content).toBe(greeting.text);
      expect((detail.metrics as { interruptions: number }).interruptions).toBe(1);
    },
  );

  it('interruptions: never — the greeting plays to the end and the question is answered after it', T, async () => {
    // Act
    const steps = [
      step.bargeIn('Sorry, what are your hours?', { afterAssistantStartsMs: 800 }),
      waitForAssistant(),
      step.say('Thanks, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ];
    const { detail, carrier } = await run({ interruptions: 'never' }, steps);
    // Assert
    expect(carrier.streams[0]!.clears).toHaveLength(0);
    expect(greetingOf(detail.transcript)).toMatchObject({ text: LONG_GREETING, interrupted: false });
    const said = detail.transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text);
    expect(said).toContain("We're open Monday through Friday from nine to five, and Saturday mornings until noon.");
    // The held question gets its turn row, its latency counting the wait for the greeting to end.
    const turns = (detail.metrics as { turns: { held?: boolean; latency_ms: number | null }[] }).turns;
    expect(turns).toHaveLength(2);
    expect(turns[0]).toMatchObject({ held: true });
    expect(turns[0]!.latency_ms).toBeGreaterThan(0);
  });

  it('a greeting cut before any of its words was heard is neither in the transcript nor counted as an interruption', T, async () => {
    // Arrange: the greeting's first word alone takes ~1 s to say; the caller talks over it at once.
    const greeting = 'Pneumonoultramicroscopicsilicovolcanoconiosis is what we treat here at Acme Lung Clinic.';
    const steps = [
      step.bargeIn('Hello? Who is this please?', { afterAssistantStartsMs: 50 }),
      waitForAssistant(),
      step.say('Thanks, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ];
    // Act
    const { detail, carrier } = await run({ interruptions: 'anytime' }, steps, { first_message: greeting });
    // Assert
    expect(carrier.streams[0]!.clears.length).toBeGreaterThanOrEqual(1);
    const said = detail.transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text);
    expect(said.some((text) => text.startsWith('Pneumono'))).toBe(false);
    const interrupted = detail.transcript.filter((entry) => entry.interrupted).length;
    expect((detail.metrics as { interruptions: number }).interruptions).toBe(interrupted);
    expect(interrupted).toBe(0);
  });

  it('interruptions: after_greeting — the greeting is protected, a later reply is not', T, async () => {
    // Act
    const steps = [
      step.bargeIn('Sorry, what are your hours?', { afterAssistantStartsMs: 800 }),
      waitForAssistant(),
      step.say('Tell me about parking please.'),
      step.bargeIn('Wait, one more thing please.', { afterAssistantStartsMs: 800 }),
      waitForAssistant(),
      step.say('Goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ];
    const { detail, carrier } = await run({ interruptions: 'after_greeting' }, steps);
    // Assert
    expect(greetingOf(detail.transcript)).toMatchObject({ text: LONG_GREETING, interrupted: false });
    expect(carrier.streams[0]!.clears).toHaveLength(1);
    expect(detail.transcript.filter((entry) => entry.role === 'assistant' && entry.interrupted)).toHaveLength(1);
  });

  it.each([
    ['a backchannel never interrupts', 1, 'Mm-hmm.', 0],
    ['fewer words than interrupt_min_words do not interrupt', 3, 'Wait.', 0],
    ['enough words interrupt', 3, 'Wait, wait, please stop now.', 1],
  ])('min words: %s', T, async (_name, minWords, words, clears) => {
    // Act
    const steps = [
      step.bargeIn(words, { afterAssistantStartsMs: 800 }),
      waitForAssistant(),
      step.say('Okay, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ];
    const { carrier } = await run({ interruptions: 'anytime', interrupt_min_words: minWords }, steps);
    // Assert
    expect(carrier.streams[0]!.clears).toHaveLength(clears);
  });
});

describe.concurrent('eager end of turn', () => {
  const short = { first_message: 'Hello, Acme Dental.', advanced: QUIET };

  it('eager hit: the reply starts on EagerEndOfTurn and is kept at EndOfTurn', T, async () => {
    // Act
    const placed = await callScripted(stack, short, [
      waitForAssistant(),
      step.say('Are you open on Saturday mornings?'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(placed.tenant.businessId, placed.callId);
    // Assert
    const metrics = detail.metrics as unknown as { turns: { eager: boolean }[]; eager: { started: number; discarded: number } };
    expect(metrics.turns[0]!.eager).toBe(true);
    expect(metrics.eager.started).toBeGreaterThanOrEqual(1);
  });

  it('eager miss: the caller goes on after a pause, the early reply is discarded and the full turn answered', T, async () => {
    // Act
    const placed = await callScripted(stack, short, [
      waitForAssistant(),
      step.say('I would like to'),
      step.say('book a cleaning next week.'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(placed.tenant.businessId, placed.callId);
    // Assert
    const metrics = detail.metrics as unknown as { turns: { eager: boolean }[]; eager: { started: number; discarded: number } };
    expect(metrics.eager.discarded).toBeGreaterThanOrEqual(1);
    expect(detail.transcript.find((entry) => entry.role === 'user')!.text).toBe('I would like to book a cleaning next week.');
    expect(detail.transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text)).toContain(
      "I'd be happy to help you book that. What day and time work best for you?",
    );
  });

  it('eager off: no early requests', T, async () => {
    // Act
    const placed = await callScripted(stack, { ...short, transcriber: { eager: false } }, [
      waitForAssistant(),
      step.say('Are you open on Saturday mornings?'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(placed.tenant.businessId, placed.callId);
    // Assert
    const metrics = detail.metrics as unknown as { turns: { eager: boolean }[]; eager: { started: number } };
    expect(metrics.eager.started).toBe(0);
    expect(metrics.turns[0]!.eager).toBe(false);
  });
});
