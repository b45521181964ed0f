import { ListenV2Model, SpeakV1Model } from '@deepgram/sdk';
import { describe, expect, it } from 'vitest';
import { parseAssistantConfig } from '../../../shared/domain/assistant-config';
import { LANGUAGE_CODES, speechPlan, supportedLanguage } from '../../../shared/domain/languages';
import { AURA_2_VOICES, DEEPGRAM_STT_MODELS, REALTIME_VOICES } from '../../../shared/domain/speech-catalog';
import { ValidationError, type ValidationItem } from '../../../shared/errors';

const LOC = ['body', 'config'];

function itemsOf(config: unknown): ValidationItem[] {
  try {
    parseAssistantConfig(config, LOC);
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return error.items;
    throw error;
  }
}

describe('language', () => {
  it.each(['en', 'en-US', 'en-gb', 'EN', 'es', 'es-MX', 'es-419', 'fr-CA', 'de', 'it', 'nl', 'ja', 'ja-JP'])('accepts %s', (language) => {
    // Act / Assert
    expect(itemsOf({ language })).toEqual([]);
  });

  it.each(['klingon', 'tlh', 'zz', 'en-', 'english', ''])('refuses %j with 422 value_error listing the supported languages', (language) => {
    // Act
    const items = itemsOf({ language });

    // Assert
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ loc: [...LOC, 'language'], type: 'value_error', input: language, ctx: { expected: LANGUAGE_CODES } });
    expect(items[0]!.msg).toContain(`language '${language}' is not supported; use one of en (English), es (Spanish), fr (French)`);
  });

  it.each(['pt', 'pt-BR', 'hi', 'ru'])('runs %s only in live mode (no Aura-2 voice speaks it)', (language) => {
    // Act
    const standard = itemsOf({ language });
    const live = itemsOf({ language, mode: 'live' });

    // Assert
    expect(standard).toHaveLength(1);
    expect(standard[0]).toMatchObject({ loc: [...LOC, 'language'], ctx: { expected: ['en', 'es', 'fr', 'de', 'it', 'nl', 'ja'] } });
    expect(standard[0]!.msg).toMatch(/has no Aura-2 voice, so it runs only with mode 'live'/);
    expect(live).toEqual([]);
  });
});

describe('transcriber.model', () => {
  it('defaults to gpt-transcribe under provider openai and stays flux-general-en under deepgram', () => {
    // Act
    const openai = parseAssistantConfig({ transcriber: { provider: 'openai' } }, LOC).config;
    const deepgram = parseAssistantConfig({}, LOC).config;

    // Assert
    expect(openai.transcriber.model).toBe('gpt-transcribe');
    expect(deepgram.transcriber.model).toBe('flux-general-en');
  });

  it.each([
    ['deepgram', 'flux-general-en'],
    ['deepgram', 'flux-general-multi'],
    ['openai', 'gpt-4o-transcribe'],
    ['openai', 'gpt-4o-mini-transcribe'],
    ['openai', 'whisper-1'],
  ])('accepts %s %s', (provider, model) => {
    expect(itemsOf({ transcriber: { provider, model } })).toEqual([]);
  });

  it.each([
    ['deepgram', 'nova-3', ['flux-general-en', 'flux-general-multi']],
    ['deepgram', 'gpt-4o-transcribe', ['flux-general-en', 'flux-general-multi']],
    ['openai', 'flux-general-en', ['gpt-transcribe']],
    ['openai', 'gpt-realtime-whisper', ['gpt-transcribe']],
  ])('refuses %s %s, listing the provider’s models', (provider, model, listed) => {
    // Act
    const items = itemsOf({ transcriber: { provider, model } });

    // Assert
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ loc: [...LOC, 'transcriber', 'model'], type: 'value_error', input: model });
    expect(items[0]!.ctx!.expected).toEqual(expect.arrayContaining(listed));
    expect(items[0]!.msg).toContain(`'${model}' is not a transcription model the engine runs with provider ${provider}; use one of '`);
  });
});

describe('live_voice', () => {
  it.each(REALTIME_VOICES)('accepts %s', (voice) => {
    expect(itemsOf({ live_voice: voice })).toEqual([]);
  });

  it('refuses thalia (an Aura voice) with literal_error listing the realtime voices', () => {
    // Act
    const items = itemsOf({ live_voice: 'thalia' });

    // Assert
    expect(items).toEqual([
      {
        loc: [...LOC, 'live_voice'],
        msg: "Input should be 'alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin' or 'cedar'",
        type: 'literal_error',
        input: 'thalia',
        ctx: { expected: "'alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin' or 'cedar'" },
      },
    ]);
  });
});

describe('voice.voice_id', () => {
  it('accepts an empty voice (the language default) and a voice of the language', () => {
    expect(itemsOf({ language: 'es', voice: { voice_id: '' } })).toEqual([]);
    expect(itemsOf({ language: 'es', voice: { voice_id: 'aura-2-javier-es' } })).toEqual([]);
  });

  it('refuses an unknown voice, listing the voices of the language', () => {
    // Act
    const items = itemsOf({ language: 'fr', voice: { voice_id: 'aura-2-nobody-fr' } });

    // Assert
    expect(items).toMatchObject([
      { loc: [...LOC, 'voice', 'voice_id'], type: 'value_error', ctx: { expected: ['aura-2-agathe-fr', 'aura-2-hector-fr'] } },
    ]);
  });

  it('refuses a voice of another language in standard mode, and ignores the mismatch in live mode', () => {
    // Act
    const standard = itemsOf({ language: 'de', voice: { voice_id: 'aura-2-thalia-en' } });
    const live = itemsOf({ language: 'de', mode: 'live', voice: { voice_id: 'aura-2-thalia-en' } });

    // Assert
    expect(standard).toHaveLength(1);
    expect(standard[0]!.msg).toContain("'aura-2-thalia-en' speaks en, but the assistant's language is de");
    expect(live).toEqual([]);
  });
});

describe('speechPlan', () => {
  const base = parseAssistantConfig({}, LOC).config;

  it.each([
    ['en', 'flux-general-en', 'aura-2-thalia-en'],
    ['en-US', 'flux-general-en', 'aura-2-thalia-en'],
    ['es', 'flux-general-multi', 'aura-2-celeste-es'],
    ['ja', 'flux-general-multi', 'aura-2-izanami-ja'],
  ])('%s hears with %s and speaks with %s by default', (language, model, voice) => {
    // Act
    const plan = speechPlan({ ...base, language });

    // Assert
    expect(plan.stt).toEqual({ provider: 'deepgram', model, language: language.slice(0, 2) });
    expect(plan.voice).toBe(voice);
  });

  it('keeps a chosen voice and the OpenAI transcriber, told the language', () => {
    // Act
    const plan = speechPlan({
      ...base,
      language: 'es-MX',
      transcriber: { ...base.transcriber, provider: 'openai', model: 'gpt-4o-transcribe' },
      voice: { ...base.voice, voice_id: 'aura-2-javier-es' },
    });

    // Assert
    expect(plan.stt).toEqual({ provider: 'openai', model: 'gpt-4o-transcribe', language: 'es' });
    expect(plan.voice).toBe('aura-2-javier-es');
  });

  it('runs a stored language the service cannot run in English', () => {
    expect(speechPlan({ ...base, language: 'klingon' }).language.code).toBe('en');
    expect(supportedLanguage('klingon')).toBeUndefined();
  });
});

describe('the catalog matches the installed SDKs', () => {
  it('lists exactly the Aura-2 voices of @deepgram/sdk', () => {
    const sdk = Object.values(SpeakV1Model).filter((model) => model.startsWith('aura-2-'));
    expect([...AURA_2_VOICES].sort()).toEqual([...sdk].sort());
  });

  it('lists exactly the Flux models of @deepgram/sdk', () => {
    expect([...DEEPGRAM_STT_MODELS].sort()).toEqual(Object.values(ListenV2Model).sort());
  });
});
