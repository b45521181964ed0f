import { randomUUID } from 'node:crypto';
import { decodeMulaw } from '../audio/mulaw';
import { AURA_2_VOICES } from '../../../shared/domain/speech-catalog';
import { synthesizeSpeechLike, textSeed } from './mulaw-signal';

/**
 * Aura over REST (`POST /v1/speak?model=…&encoding=…&sample_rate=…&container=…`, JSON body
 * `{"text": "…"}`) as the Deepgram stand-in answers it: the whole utterance as audio bytes in one
 * response, the same speech-like voice the WebSocket streams. Deepgram's REST default is MP3; the
 * sandbox makes uncompressed audio only (`mulaw` at 8000 Hz, `linear16` at 8000–48000 Hz), in a
 * WAV container unless `container=none`, and refuses the compressed encodings with a 400 that
 * says so. Errors carry Deepgram's REST body `{err_code, err_msg, request_id}`.
 */

/** Deepgram's limit on one REST request's text. */
export const MAX_SPEAK_CHARS = 2000;

const LINEAR16_RATES = [8000, 16000, 24000, 32000, 48000];

/** What the server writes back. */
export interface SpeakAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function failure(status: number, code: string, message: string, requestId: string): SpeakAnswer {
  const body = Buffer.from(JSON.stringify({ err_code: code, err_msg: message, request_id: requestId }));
  return { status, headers: { 'content-type': 'application/json', 'dg-request-id': requestId, 'dg-error': message }, body };
}

/** A WAV header for `dataBytes` of audio (format 1 PCM 16-bit, or 7 μ-law 8-bit). */
function wavHeader(encoding: 'mulaw' | 'linear16', sampleRate: number, dataBytes: number): Buffer {
  const bytesPerSample = encoding === 'mulaw' ? 1 : 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(encoding === 'mulaw' ? 7 : 1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * bytesPerSample, 28);
  header.writeUInt16LE(bytesPerSample, 32);
  header.writeUInt16LE(bytesPerSample * 8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** 8 kHz μ-law → 16-bit PCM at `sampleRate` (each sample repeated: the sandbox voice has no detail to lose). */
function linear16(mulaw: Uint8Array, sampleRate: number): Buffer {
  const pcm = decodeMulaw(mulaw);
  const factor = sampleRate / 8000;
  const out = Buffer.alloc(Math.floor(pcm.length * factor) * 2);
  for (let i = 0; i < out.length / 2; i++) out.writeInt16LE(pcm[Math.floor(i / factor)]!, i * 2);
  return out;
}

/** Answers one REST speak request; `msPerChar` is the sandbox voice's pace at speed 1. */
export function speakRest(params: URLSearchParams, body: string, msPerChar: number): SpeakAnswer {
  const requestId = randomUUID();
  const bad = (message: string) => failure(400, 'INVALID_QUERY_PARAMETER', message, requestId);
  const model = params.get('model') ?? 'aura-2-thalia-en';
  if (!AURA_2_VOICES.includes(model)) return bad(`model must be an Aura-2 voice (aura-2-<name>-<language>), got "${model.slice(0, 60)}".`);
  const encoding = params.get('encoding');
  if (encoding !== 'mulaw' && encoding !== 'linear16')
    return bad(`The sandbox makes uncompressed audio only: encoding=mulaw or linear16, got ${encoding ?? 'none (mp3)'}.`);
  const sampleRate = Number(params.get('sample_rate') ?? (encoding === 'mulaw' ? 8000 : 24000));
  if (encoding === 'mulaw' ? sampleRate !== 8000 : !LINEAR16_RATES.includes(sampleRate))
    return bad(`sample_rate ${sampleRate} is not available for ${encoding} in the sandbox.`);
  const container = params.get('container') ?? 'wav';
  if (container !== 'wav' && container !== 'none') return bad(`container must be wav or none for ${encoding}.`);
  const speed = Number(params.get('speed') ?? 1);
  if (!(speed >= 0.7 && speed <= 1.5)) return bad('speed must be between 0.7 and 1.5.');
  let text: unknown;
  try {
    text = (JSON.parse(body) as { text?: unknown }).text;
  } catch {
    return failure(400, 'INVALID_JSON', 'The body must be JSON: {"text": "…"}.', requestId);
  }
  if (typeof text !== 'string' || text.trim() === '') return failure(400, 'INVALID_INPUT', 'text must be a non-empty string.', requestId);
  if (text.length > MAX_SPEAK_CHARS) return failure(413, 'INPUT_TOO_LONG', `text is limited to ${MAX_SPEAK_CHARS} characters.`, requestId);
  const mulaw = synthesizeSpeechLike((text.trim().length * msPerChar) / speed, textSeed(text));
  const audio = encoding === 'mulaw' ? Buffer.from(mulaw) : linear16(mulaw, sampleRate);
  const bytes = container === 'wav' ? Buffer.concat([wavHeader(encoding, sampleRate, audio.length), audio]) : audio;
  const contentType = container === 'wav' ? 'audio/wav' : encoding === 'mulaw' ? 'audio/basic' : 'audio/l16';
  return {
    status: 200,
    headers: {
      'content-type': contentType,
      'dg-request-id': requestId,
      'dg-model-name': model,
      'dg-char-count': String(text.length),
    },
    body: bytes,
  };
}
