import { describe, expect, it } from 'vitest';
import { readMediaConfig } from '../../../media-service/src/config';
import { startProviders } from '../../../media-service/src/server/providers';
import { textsToSandbox } from '../../../media-service/src/tools/tool-ports';
import { captureLogger } from '../../support/capture-logger';

/** `npm run dev` without secrets: every provider a loopback sandbox, the sandbox carrier on. */
const SANDBOX = {
  PUBLIC_BASE_URL: 'http://127.0.0.1:9',
  TABLE_NAME: 't',
  OUTBOUND_QUEUE_URL: 'http://127.0.0.1:9/q',
  KMS_KEY_ID: 'k',
  STREAM_TOKEN_SECRET: 'x'.repeat(32),
  SANDBOX_CARRIER: 'true',
  SES_ENDPOINT: 'http://127.0.0.1:9',
};

describe('provider labels in call metrics, in the sandbox', () => {
  it('name the vendor each sandbox stands in for, so a sandbox call still says which recogniser, model, voice and carrier it ran', async () => {
    // Act
    const providers = await startProviders(readMediaConfig(SANDBOX), { log: captureLogger().log });
    // Assert
    try {
      expect(providers.labels).toEqual({
        stt: 'deepgram-sandbox',
        llm: 'openai-sandbox',
        tts: 'deepgram-sandbox',
        telephony: 'twilio-sandbox',
      });
      const { recognisers, voices, speechToSpeech } = providers.speech;
      expect([recognisers.deepgram?.label, recognisers.openai?.label, voices.deepgram?.label, speechToSpeech.openai?.label]).toEqual([
        'deepgram-sandbox',
        'openai-sandbox',
        'deepgram-sandbox',
        'openai-realtime-sandbox',
      ]);
      expect(providers.carrier && providers.deepgramSandbox && providers.openAiSandbox).toBeDefined();
    } finally {
      await providers.close();
    }
  });

  it('send texts by the sandbox rule, where the sandbox line +1555… counts as its region (the media runtime reads it from the label)', async () => {
    // Act
    const providers = await startProviders(readMediaConfig(SANDBOX), { log: captureLogger().log });
    // Assert
    try {
      expect(textsToSandbox(providers.labels)).toBe(true);
      expect(textsToSandbox({ telephony: 'twilio' })).toBe(false);
    } finally {
      await providers.close();
    }
  });
});
