import { describe, expect, it } from 'vitest';
import { decodeSample, encodeSample } from '../../../../media-service/src/audio/mulaw';
import { CallRecorder, recorderMemoryBound, type CallRecorderOptions } from '../../../../media-service/src/recording/call-recorder';
import { WAV_HEADER_BYTES } from '../../../../media-service/src/recording/wav';
import { FakeRecordingStore } from '../support/fake-recording-store';

/** `ms` of one constant μ-law byte. */
const tone = (byte: number, ms: number) => new Uint8Array(ms * 8).fill(byte);
const A = encodeSample(1000);
const B = encodeSample(-2000);
const C = encodeSample(3000);
const target = { businessId: 7, callId: 42 };
const KEY = 'recordings/7/42.wav';

/** A recorder on an in-memory store whose parts may be as small as `partBytes`. */
function rig(options: Partial<CallRecorderOptions> = {}) {
  const store = new FakeRecordingStore(options.partBytes ?? 5 * 1024 * 1024);
  return { store, recorder: new CallRecorder({ store, target, ...options }) };
}

/** The WAV's samples as [left, right] pairs. */
function frames(wav: Uint8Array): [number, number][] {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const out: [number, number][] = [];
  for (let at = WAV_HEADER_BYTES; at < wav.length; at += 4) out.push([view.getInt16(at, true), view.getInt16(at + 2, true)]);
  return out;
}

async function finished(options: Partial<CallRecorderOptions>, record: (recorder: CallRecorder) => void): Promise<Uint8Array> {
  const { store, recorder } = rig(options);
  record(recorder);
  expect(await recorder.finish()).toBe(KEY);
  return store.objects.get(KEY)!;
}

describe('CallRecorder: the file', () => {
  it('is byte for byte a 16-bit PCM, 8000 Hz, stereo WAV with exact sizes (a short call, one PUT)', async () => {
    // Arrange
    const { store, recorder } = rig();
    recorder.caller(Uint8Array.of(A, B), 0);
    recorder.assistant(Uint8Array.of(C), 0.125);
    // Act
    const key = await recorder.finish();
    // Assert
    const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
    const le32 = (n: number) => [...le16(n & 0xffff), ...le16(n >>> 16)];
    const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
    const sample = (byte: number) => le16(decodeSample(byte) & 0xffff);
    const expected = [
      ...ascii('RIFF'), ...le32(36 + 8), ...ascii('WAVE'),
      ...ascii('fmt '), ...le32(16), ...le16(1), ...le16(2), ...le32(8000), ...le32(32_000), ...le16(4), ...le16(16),
      ...ascii('data'), ...le32(8),
      ...sample(A), ...le16(0), // frame 0: caller A, assistant silent
      ...sample(B), ...sample(C), // frame 1: caller B, assistant C
    ]; // prettier-ignore
    expect(key).toBe(KEY);
    expect([...store.objects.get(KEY)!]).toEqual(expected);
    expect(store.events).toEqual(['save 52']);
  });

  it('stores nothing for an empty recording', async () => {
    // Arrange
    const { store, recorder } = rig();
    // Act
    const key = await recorder.finish();
    // Assert
    expect(key).toBeNull();
    expect(recorder.durationMs).toBe(0);
    expect(store.events).toEqual([]);
  });

  it('fills gaps with silence and pads the shorter channel', async () => {
    // Act
    const wav = await finished({}, (recorder) => {
      recorder.caller(tone(A, 1), 0);
      recorder.caller(tone(B, 1), 3);
      recorder.assistant(tone(C, 1), 1);
    });
    // Assert
    const left = frames(wav).map(([l]) => l);
    const right = frames(wav).map(([, r]) => r);
    expect(left).toEqual([...Array(8).fill(decodeSample(A)), ...Array(16).fill(0), ...Array(8).fill(decodeSample(B))]);
    expect(right).toEqual([...Array(8).fill(0), ...Array(8).fill(decodeSample(C)), ...Array(16).fill(0)]);
  });

  it('drops audio past maxMs and before the stream started', async () => {
    // Act
    const wav = await finished({ maxMs: 20 }, (recorder) => {
      recorder.caller(Uint8Array.of(A, B, C), -0.25);
      recorder.caller(tone(A, 10), 15);
      recorder.assistant(tone(B, 5), 40);
    });
    // Assert
    expect(frames(wav)).toHaveLength(160);
    expect(frames(wav)[0]).toEqual([decodeSample(C), 0]);
    expect(
      frames(wav)
        .slice(120)
        .every(([l, r]) => l === decodeSample(A) && r === 0),
    ).toBe(true);
  });

  it('keeps a gap of minutes as silence between the audio either side of it', async () => {
    // Act
    const wav = await finished({}, (recorder) => {
      recorder.caller(tone(A, 20), 0);
      recorder.caller(tone(B, 20), 150_000);
    });
    // Assert
    const left = frames(wav).map(([l]) => l);
    expect(left).toHaveLength(150_020 * 8);
    expect([left[159], left[160], left[150_000 * 8 - 1], left[150_000 * 8]]).toEqual([decodeSample(A), 0, 0, decodeSample(B)]);
  });
});

describe('CallRecorder: the window', () => {
  it('records writes that arrive out of order within the window', async () => {
    // Act: the assistant side is written at send time, ahead of the caller's stream time
    const wav = await finished({ windowBytes: 80 }, (recorder) => {
      recorder.assistant(tone(C, 5), 5);
      recorder.caller(tone(A, 5), 0);
      recorder.caller(tone(B, 5), 5);
    });
    // Assert
    expect(frames(wav)[0]).toEqual([decodeSample(A), 0]);
    expect(frames(wav)[40]).toEqual([decodeSample(B), decodeSample(C)]);
  });

  it('drops and counts a write older than the window', async () => {
    // Arrange
    const { store, recorder } = rig({ windowBytes: 80 }); // 10 ms
    recorder.assistant(tone(C, 30), 0);
    // Act: past two windows, the window slid to 30 − 10 ms: 0–20 ms is finished
    recorder.caller(tone(A, 15), 10);
    await recorder.finish();
    // Assert
    expect(recorder.lateMs).toBe(10);
    const left = frames(store.objects.get(KEY)!).map(([l]) => l);
    expect(left.slice(0, 160).every((l) => l === 0)).toBe(true);
    expect(left.slice(160, 200).every((l) => l === decodeSample(A))).toBe(true);
    expect(left.slice(200).every((l) => l === 0)).toBe(true);
  });
});

describe('CallRecorder: parts', () => {
  const partBytes = 64; // 16 frames: 2 ms of stereo 16-bit audio

  /** `ms` of a ramp of μ-law bytes, so every frame of the file is checkable. */
  const ramp = (fromMs: number, ms: number) => Uint8Array.from({ length: ms * 8 }, (_, i) => (fromMs * 8 + i) % 256);

  it('uploads full parts during the call, then part 1 with the header and the last part, joined into the same WAV', async () => {
    // Arrange
    const { store, recorder } = rig({ partBytes, windowBytes: 8 });
    // Act: 20 ms in 1 ms writes per side, assistant a frame behind
    for (let ms = 0; ms < 20; ms++) {
      recorder.caller(ramp(ms, 1), ms);
      recorder.assistant(ramp(ms + 100, 1), ms);
      await recorder.settled(); // faster than real time: let each part land
    }
    const duringCall = [...store.events];
    const key = await recorder.finish();
    // Assert
    expect(key).toBe(KEY);
    // 160 frames: part 1 is held to the end; 2 … 9 leave during the call; the window's last
    // 8–16 frames fill part 10 at the end; then part 1 gets its header.
    expect(duringCall).toEqual(['start', ...[2, 3, 4, 5, 6, 7, 8, 9].map((n) => `part ${n} 64`)]);
    expect(store.events.slice(duringCall.length)).toEqual(['part 10 64', `part 1 ${44 + 64}`, 'complete']);
    const expected = await finished({}, (single) => {
      single.caller(ramp(0, 20), 0);
      single.assistant(ramp(100, 20), 0);
    });
    expect(Buffer.from(store.objects.get(KEY)!).equals(Buffer.from(expected))).toBe(true);
    expect(recorder.peakRetainedBytes).toBeLessThanOrEqual(recorderMemoryBound(partBytes, 8));
  });

  it('writes a recording of exactly one part in one PUT, and of a part and a bit as two parts', async () => {
    // Arrange
    const one = rig({ partBytes, windowBytes: 8 });
    const more = rig({ partBytes, windowBytes: 8 });
    // Act
    one.recorder.caller(tone(A, 2), 0);
    more.recorder.caller(tone(A, 2), 0);
    more.recorder.caller(tone(B, 0.125), 2);
    await Promise.all([one.recorder.finish(), more.recorder.finish()]);
    // Assert
    expect(one.store.events).toEqual([`save ${44 + 64}`]);
    expect(more.store.events).toEqual(['start', `part 1 ${44 + 64}`, 'part 2 4', 'complete']);
  });

  it('fails the recording and aborts the upload when a part fills while the previous is still uploading', async () => {
    // Arrange
    const { store, recorder } = rig({ partBytes, windowBytes: 8 });
    store.holdParts = true;
    // Act: 8 ms is four parts of audio, written before the store answers
    recorder.caller(tone(A, 8), 0);
    recorder.caller(tone(A, 1), 8);
    store.releaseParts();
    // Assert
    await expect(recorder.finish()).rejects.toThrow(/fell behind/);
    expect(store.events).toEqual(['start', 'part 2 64', 'abort']);
    expect(store.objects.size).toBe(0);
    expect(recorder.retainedBytes).toBe(0);
  });

  it('aborts the upload and rejects when a part upload fails', async () => {
    // Arrange
    const { store, recorder } = rig({ partBytes, windowBytes: 8 });
    store.failParts = new Error('S3 is down');
    // Act
    recorder.caller(tone(A, 6), 0);
    // Assert
    await expect(recorder.finish()).rejects.toThrow('S3 is down');
    expect(store.events).toEqual(['start', 'abort']);
    expect(store.objects.size).toBe(0);
  });

  it('aborts a started upload when the recording is discarded', async () => {
    // Arrange
    const { store, recorder } = rig({ partBytes, windowBytes: 8 });
    recorder.caller(tone(A, 6), 0);
    // Act
    await recorder.discard();
    // Assert
    expect(store.events).toEqual(['start', 'part 2 64', 'abort']);
    expect(store.objects.size).toBe(0);
    await expect(recorder.finish()).rejects.toThrow();
  });
});
