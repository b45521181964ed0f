import * as v from 'valibot';

/** μ-law 8 kHz: 8 bytes per millisecond; one 20 ms frame is 160 bytes. */
export const MULAW_BYTES_PER_MS = 8;
export const FRAME_BYTES = 160;
/** μ-law silence (used to pad the last partial frame: Twilio may not play partial frames). */
export const MULAW_SILENCE = 0xff;

const Sequenced = { sequenceNumber: v.string(), streamSid: v.string() };

/** Every Twilio → server message of a bidirectional Media Stream (protocols.md A1). */
export const TwilioInboundMessageSchema = v.variant('event', [
  v.looseObject({ event: v.literal('connected'), protocol: v.optional(v.string()), version: v.optional(v.string()) }),
  v.looseObject({
    event: v.literal('start'),
    ...Sequenced,
    start: v.looseObject({
      accountSid: v.string(),
      streamSid: v.string(),
      callSid: v.string(),
      tracks: v.optional(v.array(v.string()), []),
      customParameters: v.optional(v.record(v.string(), v.string()), {}),
      mediaFormat: v.looseObject({ encoding: v.string(), sampleRate: v.number(), channels: v.number() }),
    }),
  }),
  v.looseObject({
    event: v.literal('media'),
    ...Sequenced,
    media: v.looseObject({ track: v.optional(v.string()), chunk: v.optional(v.string()), timestamp: v.string(), payload: v.string() }),
  }),
  v.looseObject({ event: v.literal('dtmf'), ...Sequenced, dtmf: v.looseObject({ track: v.optional(v.string()), digit: v.string() }) }),
  v.looseObject({ event: v.literal('mark'), ...Sequenced, mark: v.looseObject({ name: v.string() }) }),
  v.looseObject({ event: v.literal('stop'), ...Sequenced, stop: v.looseObject({ accountSid: v.optional(v.string()), callSid: v.string() }) }),
]);

export type TwilioInboundMessage = v.InferOutput<typeof TwilioInboundMessageSchema>;

/**
 * Parses one text frame. Returns undefined for malformed JSON or an unknown/invalid event; the
 * caller logs and drops it (a bad frame never ends a call). The per-frame `media` path is parsed
 * by the same schema: Twilio sends ~50 of them a second per call, cheap next to base64 decoding.
 */
export function parseTwilioMessage(text: string): TwilioInboundMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(TwilioInboundMessageSchema, json);
  return parsed.success ? parsed.output : undefined;
}

/** Server → Twilio `media`: raw μ-law, base64, no header. */
export function mediaMessage(streamSid: string, mulaw: Uint8Array): string {
  return JSON.stringify({ event: 'media', streamSid, media: { payload: Buffer.from(mulaw).toString('base64') } });
}

/** Server → Twilio `mark`: echoed when the audio before it has played (or on `clear`). */
export function markMessage(streamSid: string, name: string): string {
  return JSON.stringify({ event: 'mark', streamSid, mark: { name } });
}

/** Server → Twilio `clear`: drops buffered audio; pending marks come back at once. */
export function clearMessage(streamSid: string): string {
  return JSON.stringify({ event: 'clear', streamSid });
}

/** Pads audio with μ-law silence to whole 20 ms frames. */
export function padToFrames(mulaw: Uint8Array): Uint8Array {
  const remainder = mulaw.length % FRAME_BYTES;
  if (remainder === 0) return mulaw;
  const padded = new Uint8Array(mulaw.length + FRAME_BYTES - remainder).fill(MULAW_SILENCE);
  padded.set(mulaw);
  return padded;
}
