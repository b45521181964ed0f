import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { signStreamToken } from '../../../media-service/src/telephony/stream-token';
import { twilioSignature } from '../../../media-service/src/telephony/twilio-signature';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/** Failures are injected into shared sandbox servers, so these tests run one at a time. */
let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };
const FALLBACK = "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.";
// One LLM request per turn (no eager guess, no hedged twin), so one injected failure hits the reply.
const ONE_REQUEST = { model: { race: false }, transcriber: { eager: false } };
const assistantLines = (transcript: { role: string; text: string }[]) =>
  transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text);

describe('provider failures and bad streams end calls cleanly', () => {
  it('the LLM fails: with safety_fallback the caller hears a graceful line and the call ends error', T, async () => {
    // Arrange
    stack.openai.failNext({ kind: 'status', status: 500, message: 'upstream exploded' });
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', ...ONE_REQUEST, advanced: QUIET }, [
      waitForAssistant(),
      step.say('What are your hours?'),
      step.silence(),
    ]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect(assistantLines(detail.transcript)).toEqual(['Hello.', FALLBACK]);
    expect(stack.bus.of(callId)).toEqual(['call.started', 'call.ended']);
  });

  it('the LLM fails on a Spanish assistant: the fallback line is said in Spanish', T, async () => {
    // Arrange
    stack.openai.failNext({ kind: 'status', status: 500, message: 'upstream exploded' });
    // Act
    const config = { language: 'es', first_message: 'Hola.', ...ONE_REQUEST, advanced: QUIET };
    const { tenant, callId } = await callScripted(stack, config, [waitForAssistant(), step.say('¿Abren los sábados?'), step.silence()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect(assistantLines(detail.transcript)).toEqual([
      'Hola.',
      'Lo siento, tengo un problema técnico y no puedo continuar ahora mismo. Por favor, vuelva a llamar dentro de un rato. Adiós.',
    ]);
  });

  it('the LLM stream is cut mid-reply: without safety_fallback the call just ends error', T, async () => {
    // Arrange
    stack.openai.failNext({ kind: 'cut', afterTokens: 2, how: 'destroy' });
    // Act
    const config = { first_message: 'Hello.', ...ONE_REQUEST, advanced: { ...QUIET, safety_fallback: false } };
    const { tenant, callId } = await callScripted(stack, config, [waitForAssistant(), step.say('What are your hours?'), step.silence()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect(assistantLines(detail.transcript)).not.toContain(FALLBACK);
  });

  it('speech recognition fails (Flux Error and close): the fallback line, then error', T, async () => {
    // Arrange
    stack.deepgram.setFluxFault('error');
    try {
      // Act
      const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', advanced: QUIET }, [
        waitForAssistant(),
        step.silence(),
      ]);
      const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      expect(call.ended_reason).toBe('error');
      expect(assistantLines(detail.transcript)).toContain(FALLBACK);
    } finally {
      stack.deepgram.setFluxFault('none');
    }
  });

  it('the LLM answers garbage SSE: a log line, the fallback line, ended error', T, async () => {
    // Arrange
    stack.openai.failNext({ kind: 'garbage' });
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', ...ONE_REQUEST, advanced: QUIET }, [
      waitForAssistant(),
      step.say('What are your hours?'),
      step.silence(),
    ]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect(assistantLines(detail.transcript)).toContain(FALLBACK);
    expect(stack.logs.some((line) => line.message === 'call.provider.failed' && line.fields?.call_id === callId)).toBe(true);
  });

  it('Flux goes silent mid-turn (the watchdog trips): the fallback line, then error', T, async () => {
    // Arrange
    stack.deepgram.setFluxFault('stall-after-start-of-turn');
    try {
      // Act
      const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', advanced: QUIET }, [
        waitForAssistant(),
        step.say('What are your hours?'),
        step.silence(),
      ]);
      const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      expect(call.ended_reason).toBe('error');
      expect(assistantLines(detail.transcript)).toContain(FALLBACK);
    } finally {
      stack.deepgram.setFluxFault('none');
    }
  });

  it('a media stream for a call that already ended is refused: socket closed, call untouched, no events', T, async () => {
    // Arrange: a finished call
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', advanced: QUIET }, [waitForAssistant(), step.hangup()]);
    const before = await stack.whenCallEnded(tenant.businessId, callId);
    const events = stack.bus.of(callId).length;
    const url = `ws://127.0.0.1:${stack.media.port}/twilio/media`;
    const token = signStreamToken(stack.streamSecret, { callId, businessId: tenant.businessId, expiresAt: Date.now() + 60_000 });
    // Act: a signed stream with a valid token replays it
    const ws = new WebSocket(url, { headers: { 'X-Twilio-Signature': twilioSignature(stack.carrier.authToken, url) } });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    ws.send(
      JSON.stringify({
        event: 'start',
        sequenceNumber: '1',
        streamSid: 'MZreplay',
        start: {
          accountSid: stack.carrier.accountSid,
          streamSid: 'MZreplay',
          callSid: 'CAreplay',
          tracks: ['inbound'],
          customParameters: { call_id: String(callId), token },
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        },
      }),
    );
    ws.send('this is not json');
    const code = await new Promise<number>((resolve) => ws.once('close', (closeCode) => resolve(closeCode)));
    // Assert
    expect(code).toBeGreaterThanOrEqual(1000);
    const after = await stack.core.callRepo.findCall(tenant.businessId, callId, Math.floor(Date.now() / 1000));
    expect(after!.call).toEqual(before.call);
    expect(stack.bus.of(callId)).toHaveLength(events);
    expect(stack.logs.some((line) => line.message === 'call.session.refused' && line.fields?.call_id === callId)).toBe(true);
  });
});
