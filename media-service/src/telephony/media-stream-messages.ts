import * as v from 'valibot';
import { BYTES_PER_MS, FRAME_BYTES, MULAW_SILENCE, padToFrame } from '../audio/mulaw';

/**
 * The Twilio Media Streams wire format (docs/protocols.md "Twilio"): schemas for what Twilio sends us, and
 * builders for what we send it. The sandbox carrier uses the reverse pair (it plays Twilio).
 */

/** μ-law 8 kHz: 8 bytes per millisecond (re-exported for wire-level callers). */
export const MULAW_BYTES_PER_MS = BYTES_PER_MS;
export { FRAME_BYTES, MULAW_SILENCE };

const Sequenced = { sequenceNumber: v.string(), streamSid: v.string() };

const MediaMessageSchema = v.looseObject({
  event: v.literal('media'),
  ...Sequenced,
  media: v.looseObject({ track: v.optional(v.string()), chunk: v.optional(v.string()), timestamp: v.string(), payload: v.string() }),
});

/** Every Twilio → server message of a bidirectional Media Stream (docs/protocols.md "Twilio"). */
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
  MediaMessageSchema,
  v.looseObject({ event: v.literal('dtmf'), ...Sequenced, dtmf: v.looseObject({ track: v.optional(v.string()), digit: v.string() }) }),
  v.looseObject({ event: v.literal('mark'), ...Sequenced, mark: v.looseObject({ name: v.string() }) }),
  v.looseObject({
    event: v.literal('stop'),
    ...Sequenced,
    stop: v.looseObject({ accountSid: v.optional(v.string()), callSid: v.string() }),
  }),
]);

/** One parsed Twilio → server message. */
export type TwilioInboundMessage = v.InferOutput<typeof TwilioInboundMessageSchema>;

/** The `media` member of {@link TwilioInboundMessage}. */
export type TwilioMediaMessage = v.InferOutput<typeof MediaMessageSchema>;

/**
 * Hot path: ~50 `media` messages a second per call are checked structurally by hand, never by the
 * schema (audio frames are plain objects, never schema-checked per frame: 50 a second per call). Returns undefined when `json` is
 * not a well-formed media message.
 */
function asMediaMessage(json: unknown): TwilioMediaMessage | undefined {
  const m = json as { sequenceNumber?: unknown; streamSid?: unknown; media?: { timestamp?: unknown; payload?: unknown } } | null;
  const media = m?.media;
  if (typeof media !== 'object' || media === null) return undefined;
  if (typeof media.payload !== 'string' || typeof media.timestamp !== 'string') return undefined;
  if (typeof m!.sequenceNumber !== 'string' || typeof m!.streamSid !== 'string') return undefined;
  return json as TwilioMediaMessage;
}

/** The `mark` member of {@link TwilioInboundMessage}. */
type TwilioMarkMessage = Extract<TwilioInboundMessage, { event: 'mark' }>;

/**
 * Hot path too: a mark echo comes back for every mark we send, one per 100 ms of every reply
 * (frame-marker.ts), so they are checked by hand like `media`.
 */
function asMarkMessage(json: unknown): TwilioMarkMessage | undefined {
  const m = json as { sequenceNumber?: unknown; streamSid?: unknown; mark?: { name?: unknown } } | null;
  if (typeof m?.mark !== 'object' || m.mark === null || typeof m.mark.name !== 'string') return undefined;
  if (typeof m.sequenceNumber !== 'string' || typeof m.streamSid !== 'string') return undefined;
  return json as TwilioMarkMessage;
}

/**
 * Parses one text frame. Returns undefined for malformed JSON or an unknown/invalid event; the
 * caller logs and drops it (a bad frame never ends a call). `media` and `mark` take hand-checked
 * fast paths; the rare control messages go through `v.safeParse`.
 */
export function parseTwilioMessage(text: string): TwilioInboundMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const event = (json as { event?: unknown } | null)?.event;
  if (event === 'media') return asMediaMessage(json);
  if (event === 'mark') return asMarkMessage(json);
  const parsed = v.safeParse(TwilioInboundMessageSchema, json);
  return parsed.success ? parsed.output : undefined;
}

/** Base64 of a byte view without copying it first. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Server → Twilio `media`: raw μ-law, base64, no header. */
export function mediaMessage(streamSid: string, mulaw: Uint8Array): string {
  return JSON.stringify({ event: 'media', streamSid, media: { payload: toBase64(mulaw) } });
}

/**
 * The bytes of a stream's `media` messages up to the payload: built once per stream, so each 20 ms
 * frame costs one base64 string and one buffer ({@link mediaMessageBytes}), not an object, a JSON
 * string and ws's copy of it into bytes.
 */
export function mediaMessageHead(streamSid: string): Buffer {
  return Buffer.from(`{"event":"media","streamSid":${JSON.stringify(streamSid)},"media":{"payload":"`);
}

const MEDIA_MESSAGE_TAIL = '"}}';

/**
 * {@link mediaMessage} as the bytes of one text frame (the same JSON, byte for byte), from the
 * stream's {@link mediaMessageHead}. Send it as text: `ws.send(bytes, { binary: false })`.
 */
export function mediaMessageBytes(head: Buffer, mulaw: Uint8Array): Buffer {
  const payload = toBase64(mulaw);
  const out = Buffer.allocUnsafe(head.length + payload.length + MEDIA_MESSAGE_TAIL.length);
  head.copy(out, 0);
  out.write(payload, head.length, 'latin1');
  out.write(MEDIA_MESSAGE_TAIL, head.length + payload.length, 'latin1');
  return out;
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
  return padToFrame(mulaw);
}

/**
 * Server → Twilio control messages, as the sandbox carrier validates them (`media` again takes a
 * hand-checked fast path there). Twilio itself ignores unknown events; the sandbox records them.
 */
export const TwilioOutboundControlSchema = v.variant('event', [
  v.looseObject({ event: v.literal('mark'), streamSid: v.string(), mark: v.looseObject({ name: v.string() }) }),
  v.looseObject({ event: v.literal('clear'), streamSid: v.string() }),
]);

/** One parsed server → Twilio message. */
export type TwilioOutboundMessage =
  { event: 'media'; streamSid: string; payload: string } | v.InferOutput<typeof TwilioOutboundControlSchema>;

/** Parses what our server sent to Twilio; undefined for malformed or unknown messages. */
export function parseServerMessage(text: string): TwilioOutboundMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const m = json as { event?: unknown; streamSid?: unknown; media?: { payload?: unknown } } | null;
  if (m?.event === 'media') {
    if (typeof m.streamSid !== 'string' || typeof m.media?.payload !== 'string') return undefined;
    return { event: 'media', streamSid: m.streamSid, payload: m.media.payload };
  }
  const parsed = v.safeParse(TwilioOutboundControlSchema, json);
  return parsed.success ? parsed.output : undefined;
}
