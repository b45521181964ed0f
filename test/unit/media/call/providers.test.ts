import { describe, expect, it } from 'vitest';
import {
  findProvider,
  LIVE_PROVIDER,
  VOICE_PROVIDER,
  type ModelSource,
  type ProviderKind,
  type ProviderNames,
  type ProviderRegistry,
} from '../../../../media-service/src/call/providers';
import type { SpeechToSpeech } from '../../../../media-service/src/ports/speech-to-speech';
import type { SpeechToText } from '../../../../media-service/src/ports/speech-to-text';
import type { TextToSpeech } from '../../../../media-service/src/ports/text-to-speech';

/** The lookup hands back the entry it holds, so a port here only needs to be told apart from another. */
const notOpened = (name: string) => new Error(`${name} is not opened in a lookup test`);
const unopened = (name: string) => () => Promise.reject(notOpened(name));

const flux: SpeechToText = { open: unopened('flux') };
const whisper: SpeechToText = { open: unopened('whisper') };
const aura: TextToSpeech = {
  open: () => {
    throw notOpened('aura');
  },
};
const realtime: SpeechToSpeech = {
  open: () => {
    throw notOpened('realtime');
  },
};
const platform: ModelSource = { open: unopened('platform model') };
const custom: ModelSource = { open: unopened('custom model') };

/** A process with every provider the config can name, each labelled as its sandbox. */
const full: ProviderRegistry = {
  recognisers: { deepgram: { port: flux, label: 'deepgram-sandbox' }, openai: { port: whisper, label: 'openai-sandbox' } },
  voices: { deepgram: { port: aura, label: 'deepgram-sandbox' } },
  speechToSpeech: { openai: { port: realtime, label: 'openai-realtime-sandbox' } },
  models: { openai: { port: platform, label: 'openai-sandbox' }, custom: { port: custom, label: 'custom' } },
};

/** A process with Flux, Aura and the platform model only (the bench's). */
const deepgramOnly: ProviderRegistry = {
  recognisers: { deepgram: full.recognisers.deepgram! },
  voices: full.voices,
  speechToSpeech: {},
  models: { openai: full.models.openai! },
};

type Case<K extends ProviderKind> = { kind: K; name: ProviderNames[K]; port: unknown; label: string };

describe('findProvider', () => {
  describe.each<Case<ProviderKind>>([
    { kind: 'recognisers', name: 'deepgram', port: flux, label: 'deepgram-sandbox' },
    { kind: 'recognisers', name: 'openai', port: whisper, label: 'openai-sandbox' },
    { kind: 'voices', name: VOICE_PROVIDER, port: aura, label: 'deepgram-sandbox' },
    { kind: 'speechToSpeech', name: LIVE_PROVIDER, port: realtime, label: 'openai-realtime-sandbox' },
    { kind: 'models', name: 'openai', port: platform, label: 'openai-sandbox' },
    { kind: 'models', name: 'custom', port: custom, label: 'custom' },
  ])('$kind "$name", configured', ({ kind, name, port, label }) => {
    it(`is found with its port and the label "${label}" its calls' metrics record`, () => {
      // Act
      const found = findProvider(full, kind, name as never);
      // Assert
      expect(found).toEqual({ ok: true, entry: { port, label } });
      if (found.ok) expect(found.entry.port).toBe(port);
    });
  });

  describe.each<Case<ProviderKind> & { reason: string }>([
    { kind: 'recognisers', name: 'openai', port: undefined, label: '', reason: 'no openai recogniser configured' },
    { kind: 'speechToSpeech', name: LIVE_PROVIDER, port: undefined, label: '', reason: 'no openai speech-to-speech provider configured' },
    { kind: 'models', name: 'custom', port: undefined, label: '', reason: 'no custom model provider configured' },
  ])('$kind "$name", not configured', ({ kind, name, reason }) => {
    it('is a value saying what is missing, not a throw', () => {
      // Act
      const found = findProvider(deepgramOnly, kind, name as never);
      // Assert
      expect(found).toEqual({ ok: false, reason });
    });
  });

  it('a voice missing from an empty shelf is named as a voice', () => {
    // Arrange
    const mute: ProviderRegistry = { ...full, voices: {} };
    // Act
    const found = findProvider(mute, 'voices', VOICE_PROVIDER);
    // Assert
    expect(found).toEqual({ ok: false, reason: 'no deepgram voice configured' });
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'never finds "%s" on a shelf: only the registry\'s own entries count',
    (name) => {
      // Act
      const found = findProvider(full, 'recognisers', name as ProviderNames['recognisers']);
      // Assert
      expect(found).toEqual({ ok: false, reason: `no ${name} recogniser configured` });
    },
  );

  it('a new provider is one more entry: found by its name, the others unchanged', () => {
    // Arrange: a recogniser the config does not name yet, added as one entry.
    const assembly: SpeechToText = { open: unopened('assembly') };
    const shelf = { ...full.recognisers, assembly: { port: assembly, label: 'assembly' } };
    const grown: ProviderRegistry = { ...full, recognisers: shelf };
    // Act
    const found = findProvider(grown, 'recognisers', 'assembly' as ProviderNames['recognisers']);
    const flux = findProvider(grown, 'recognisers', 'deepgram');
    // Assert
    expect(found).toEqual({ ok: true, entry: { port: assembly, label: 'assembly' } });
    expect(flux).toEqual({ ok: true, entry: full.recognisers.deepgram });
  });
});
