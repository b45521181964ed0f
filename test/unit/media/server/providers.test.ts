import { describe, expect, it } from 'vitest';
import { readMediaConfig } from '../../../../media-service/src/config';
import { startProviders } from '../../../../media-service/src/server/providers';
import { captureLogger } from '../../../support/capture-logger';

/** A deployed stage with every provider key set: nothing of the sandbox starts. */
const KEYED = {
  PUBLIC_BASE_URL: 'https://media.example.com',
  TABLE_NAME: 't',
  OUTBOUND_QUEUE_URL: 'https://sqs.example.com/q',
  KMS_KEY_ID: 'k',
  STREAM_TOKEN_SECRET: 'x'.repeat(32),
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 'tok',
  DEEPGRAM_API_KEY: 'dg',
  OPENAI_API_KEY: 'sk-real',
};

describe('provider labels in call metrics', () => {
  it('with keys, each label names the real provider: Flux and Aura deepgram, the OpenAI transcriber and model openai', async () => {
    // Act
    const providers = await startProviders(readMediaConfig(KEYED), { log: captureLogger().log });
    // Assert
    expect(providers.labels).toEqual({ stt: 'deepgram', llm: 'openai', tts: 'deepgram', telephony: 'twilio' });
    const { recognisers, voices, speechToSpeech } = providers.speech;
    expect([recognisers.deepgram?.label, recognisers.openai?.label, voices.deepgram?.label, speechToSpeech.openai?.label]).toEqual([
      'deepgram',
      'openai',
      'deepgram',
      'openai-realtime',
    ]);
    expect(providers.carrier ?? providers.deepgramSandbox ?? providers.openAiSandbox).toBeUndefined();
    await providers.close();
  });
});
