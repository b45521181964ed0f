import { decodeSample, MULAW_SILENCE, SAMPLE_RATE } from '../audio/mulaw';

/** The canonical 44-byte RIFF/WAVE header (a `fmt ` chunk for PCM, then `data`). */
export const WAV_HEADER_BYTES = 44;

const CHANNELS = 2;
const BYTES_PER_SAMPLE = 2;

function writeAscii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

/** Writes the header of a 16-bit PCM, 8 kHz, stereo WAV whose data chunk is `dataBytes` long. */
function writeHeader(view: DataView, dataBytes: number): void {
  writeAscii(view, 0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  writeAscii(view, 8, 'WAVE');
  writeAscii(view, 12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size for PCM
  view.setUint16(20, 1, true); // format 1 = integer PCM
  view.setUint16(22, CHANNELS, true);
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * CHANNELS * BYTES_PER_SAMPLE, true); // byte rate
  view.setUint16(32, CHANNELS * BYTES_PER_SAMPLE, true); // block align
  view.setUint16(34, BYTES_PER_SAMPLE * 8, true); // bits per sample
  writeAscii(view, 36, 'data');
  view.setUint32(40, dataBytes, true);
}

/**
 * Two μ-law channels → one stereo 16-bit PCM WAV (left, right interleaved per sample), the format
 * every player and transcription service reads. The shorter channel is padded with silence.
 */
export function stereoWavFromMulaw(left: Uint8Array, right: Uint8Array): Uint8Array {
  const frames = Math.max(left.length, right.length);
  const dataBytes = frames * CHANNELS * BYTES_PER_SAMPLE;
  const wav = new Uint8Array(WAV_HEADER_BYTES + dataBytes);
  const view = new DataView(wav.buffer);
  writeHeader(view, dataBytes);
  for (let i = 0, at = WAV_HEADER_BYTES; i < frames; i++, at += CHANNELS * BYTES_PER_SAMPLE) {
    view.setInt16(at, decodeSample(left[i] ?? MULAW_SILENCE), true);
    view.setInt16(at + BYTES_PER_SAMPLE, decodeSample(right[i] ?? MULAW_SILENCE), true);
  }
  return wav;
}
