import { OPENAI_STT_MODELS_WITH_KEYWORDS } from '../../../shared/domain/speech-catalog';
import type { SttOpenOptions } from '../ports/speech-to-text';

/**
 * The configuration of an OpenAI realtime transcription session (docs/protocols.md "OpenAI
 * realtime transcription"), sent as the first event of every socket of a stream: the first one,
 * and each that replaces a dropped one.
 */

/** Server VAD silence for a Flux-style end-of-turn threshold (0.5–0.9). */
export function silenceDurationMs(eotThreshold: number): number {
  return Math.round(300 + (Math.min(0.9, Math.max(0.5, eotThreshold)) - 0.5) * 1000);
}

/** The GA `session.update` of a transcription session for one call. */
export function transcriptionSessionUpdate(o: SttOpenOptions): Record<string, unknown> {
  const language = o.language.split(/[-_]/)[0]!.toLowerCase();
  const terms = o.keyterms.slice(0, 50);
  const hints = OPENAI_STT_MODELS_WITH_KEYWORDS.includes(o.model)
    ? terms.length > 0 && { keywords: terms }
    : terms.length > 0 && { prompt: `Expect these terms: ${terms.join(', ')}.` };
  return {
    type: 'session.update',
    session: {
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcmu' },
          transcription: { model: o.model, ...(/^[a-z]{2}$/.test(language) && { language }), ...hints },
          turn_detection: {
            type: 'server_vad',
            threshold: 0.5,
            prefix_padding_ms: 300,
            silence_duration_ms: silenceDurationMs(o.eotThreshold),
          },
          noise_reduction: { type: 'near_field' },
        },
      },
    },
  };
}
