import { decodeSample, SAMPLE_RATE } from '../audio/mulaw';

/** The canonical 44-byte RIFF/WAVE header (a `fmt ` chunk for PCM, then `data`). */
export const WAV_HEADER_BYTES = 44;

const CHANNELS = 2;
const BYTES_PER_SAMPLE = 2;

/** One stereo sample frame of the WAV's data: 16-bit left, 16-bit right. */
export const WAV_FRAME_BYTES = CHANNELS * BYTES_PER_SAMPLE;

/** 16-bit linear value of each μ-law byte. */
const LINEAR = Int16Array.from({ length: 256 }, (_, byte) => decodeSample(byte));

/** Typed arrays use the platform's byte order; WAV is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(Int16Array.of(1).buffer)[0] === 1;

function writeAscii(view: DataView, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
}

/**
 * The header of a 16-bit PCM, 8 kHz, stereo WAV whose data chunk is `dataBytes` long. Both sizes
 * in it are exact, so it can only be written once the call has ended (see CallRecorder).
 */
export function wavHeader(dataBytes: number): Uint8Array {
  const header = new Uint8Array(WAV_HEADER_BYTES);
  const view = new DataView(header.buffer);
  writeAscii(view, 0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  writeAscii(view, 8, 'WAVE');
  writeAscii(view, 12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size for PCM
  view.setUint16(20, 1, true); // format 1 = integer PCM
  view.setUint16(22, CHANNELS, true);
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * WAV_FRAME_BYTES, true); // byte rate
  view.setUint16(32, WAV_FRAME_BYTES, true); // block align
  view.setUint16(34, BYTES_PER_SAMPLE * 8, true); // bits per sample
  writeAscii(view, 36, 'data');
  view.setUint32(40, dataBytes, true);
  return header;
}

/**
 * Decodes interleaved stereo μ-law (left, right, left, …) into the WAV's 16-bit little-endian data
 * at byte `at` of `out` (even). One table read and one 16-bit store per sample: ~2.6 M samples (a
 * 5 MiB part) in a few ms, so callers convert a part in slices (see RecordingParts).
 */
export function decodeMulawInto(mulaw: Uint8Array, out: Uint8Array, at: number): void {
  if (LITTLE_ENDIAN) {
    const samples = new Int16Array(out.buffer, out.byteOffset + at, mulaw.length);
    for (let i = 0; i < mulaw.length; i++) samples[i] = LINEAR[mulaw[i]!]!;
    return;
  }
  const view = new DataView(out.buffer, out.byteOffset + at, mulaw.length * BYTES_PER_SAMPLE);
  for (let i = 0; i < mulaw.length; i++) view.setInt16(i * BYTES_PER_SAMPLE, LINEAR[mulaw[i]!]!, true);
}
