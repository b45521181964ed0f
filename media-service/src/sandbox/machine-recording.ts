import { FRAME_BYTES } from '../audio/mulaw';
import { synthesizeSpeechLike, textSeed } from './mulaw-signal';
import type { SpokenText } from './scenario-script';

/**
 * What a sandbox answering machine recorded, read back as words. The sandbox voice's audio is a
 * pure function of its text (`auraSpeech`), so the machine's recording can be matched, frame by
 * frame, against the texts the voice said on that call, in order: a text whose every frame is in
 * the recording was recorded whole; one whose audio stops early (a `clear`, a hang-up) was cut.
 * This holds while the engine plays the voice's bytes unchanged (`voice.volume` 1, no
 * `background_sound`: the defaults); otherwise nothing matches and the recording reads as empty.
 */

/** One text heard in the recording. */
export interface RecordedPiece {
  text: string;
  /** Every frame of the text's audio was recorded, in order. */
  whole: boolean;
}

/** What an answering machine recorded, as the carrier reports it. */
export interface RecordedMessage {
  /** Audio time (ms from stream start) the machine started recording. */
  startMs: number;
  /** Assistant audio recorded, in ms (silence between replies is not counted). */
  audioMs: number;
  pieces: RecordedPiece[];
  /** The pieces' texts joined by spaces: the words the machine recorded. */
  text: string;
  /** Some piece was cut before its end. */
  cut: boolean;
}

/** The sandbox voice's audio for one text: the same bytes the Aura stand-in streams (whole 20 ms frames). */
export function auraSpeech(spoken: SpokenText): Uint8Array {
  return synthesizeSpeechLike(spoken.durationMs, textSeed(spoken.text));
}

function sameFrame(a: Uint8Array, aOffset: number, b: Uint8Array, bOffset: number): boolean {
  for (let i = 0; i < FRAME_BYTES; i++) if (a[aOffset + i] !== b[bOffset + i]) return false;
  return true;
}

/** Frames of `audio` from `at` that equal `speech` from its start. */
function framesMatching(audio: Uint8Array, at: number, speech: Uint8Array): number {
  let frames = 0;
  while (
    (frames + 1) * FRAME_BYTES <= speech.length &&
    at + (frames + 1) * FRAME_BYTES <= audio.length &&
    sameFrame(audio, at + frames * FRAME_BYTES, speech, frames * FRAME_BYTES)
  )
    frames++;
  return frames;
}

/**
 * Reads `audio` (what the machine recorded, whole frames) against `spoken` (what the voice said on
 * the call, in order). A frame that starts no text still due (silence, unknown audio) is skipped.
 *
 * @example readRecording(recorded, board.spoken(callSid)) // [{ text: 'Hi Jordan, this is Acme.', whole: true }]
 */
export function readRecording(audio: Uint8Array, spoken: readonly SpokenText[]): RecordedPiece[] {
  const speech = spoken.map(auraSpeech);
  const pieces: RecordedPiece[] = [];
  let next = 0;
  let at = 0;
  while (at + FRAME_BYTES <= audio.length) {
    const index = speech.findIndex((candidate, i) => i >= next && sameFrame(audio, at, candidate, 0));
    if (index < 0) {
      at += FRAME_BYTES;
      continue;
    }
    const frames = framesMatching(audio, at, speech[index]!);
    pieces.push({ text: spoken[index]!.text, whole: frames * FRAME_BYTES >= speech[index]!.length });
    next = index + 1;
    at += frames * FRAME_BYTES;
  }
  return pieces;
}

/** The machine's report of a recording that began at `startMs`. */
export function recordedMessage(startMs: number, audio: Uint8Array, spoken: readonly SpokenText[]): RecordedMessage {
  const pieces = readRecording(audio, spoken);
  return {
    startMs,
    audioMs: Math.round(audio.length / (FRAME_BYTES / 20)),
    pieces,
    text: pieces.map((piece) => piece.text.trim()).join(' '),
    cut: pieces.some((piece) => !piece.whole),
  };
}
