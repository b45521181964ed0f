import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Whole calls on a process whose provider registry has Flux, Aura and the models only: no OpenAI
 * transcription and no speech-to-speech. A call that names a missing provider ends `error` with
 * its log line; one on the providers present runs and records their labels.
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({
    providers: (full) => ({ ...full, recognisers: { deepgram: full.recognisers.deepgram! }, speechToSpeech: {} }),
  });
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };

/** The call's log lines named `message`, with their reasons. */
const reasons = (message: string, callId: number) =>
  stack.logs.filter((line) => line.message === message && line.fields?.call_id === callId).map((line) => line.fields?.reason);

describe.concurrent('providers missing from the registry', () => {
  it('transcriber.provider openai without an OpenAI recogniser: logged, the call ends error before anything is said', T, async () => {
    // Arrange
    const config = { first_message: 'Hello, Acme Dental.', transcriber: { provider: 'openai' }, advanced: QUIET };
    // Act
    const { tenant, callId } = await callScripted(stack, config, [step.pause(5000), step.hangup()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect(reasons('call.speech.unavailable', callId)).toEqual(['no openai recogniser configured']);
    expect(detail.transcript).toEqual([]);
  });

  it('mode live without a speech-to-speech provider: logged, the call ends error before anything is said', T, async () => {
    // Arrange
    const config = { mode: 'live', first_message: 'Hello, Acme Dental.', advanced: QUIET };
    // Act
    const { tenant, callId } = await callScripted(stack, config, [step.pause(5000), step.hangup()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('error');
    expect(reasons('call.live.unavailable', callId)).toEqual(['no openai speech-to-speech provider configured']);
    expect(detail.transcript).toEqual([]);
  });

  it('a Deepgram call on the same process runs, and records the labels of the entries it took', T, async () => {
    // Arrange
    const config = { first_message: 'Hello, Acme Dental.', advanced: QUIET };
    // Act
    const { tenant, callId } = await callScripted(stack, config, [waitForAssistant(), step.hangup()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('caller_hung_up');
    expect(detail.transcript.map(({ role, text }) => ({ role, text }))).toEqual([{ role: 'assistant', text: 'Hello, Acme Dental.' }]);
    expect(detail.metrics).toMatchObject({
      providers: { stt: 'deepgram-sandbox', llm: 'openai-sandbox', tts: 'deepgram-sandbox', telephony: 'twilio-sandbox' },
    });
    expect(reasons('call.speech.unavailable', callId)).toEqual([]);
  });
});
