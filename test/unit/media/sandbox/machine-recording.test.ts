import { describe, expect, it } from 'vitest';
import { FRAME_BYTES, MULAW_SILENCE } from '../../../../media-service/src/audio/mulaw';
import { auraSpeech, readRecording, recordedMessage } from '../../../../media-service/src/sandbox/machine-recording';
import type { SpokenText } from '../../../../media-service/src/sandbox/scenario-script';

const GREETING: SpokenText = { text: 'Hi, this is Ava.', durationMs: 400 };
const MESSAGE: SpokenText = { text: 'This is an AI assistant calling for Acme. Please call us back.', durationMs: 1560 };
const silence = (frames: number) => new Uint8Array(frames * FRAME_BYTES).fill(MULAW_SILENCE);
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

describe('a sandbox machine reads its recording back as words', () => {
  it('a message recorded to its last frame is whole; silence around it is skipped', () => {
    // Arrange
    const audio = join(silence(3), auraSpeech(MESSAGE), silence(2));
    // Act / Assert
    expect(readRecording(audio, [GREETING, MESSAGE])).toEqual([{ text: MESSAGE.text, whole: true }]);
  });

  it('a message the hang-up cut is read as cut', () => {
    // Arrange: the first half of the message's frames
    const speech = auraSpeech(MESSAGE);
    const half = speech.subarray(0, Math.floor(speech.length / FRAME_BYTES / 2) * FRAME_BYTES);
    // Act
    const message = recordedMessage(1000, half, [MESSAGE]);
    // Assert
    expect(message).toMatchObject({ startMs: 1000, pieces: [{ text: MESSAGE.text, whole: false }], cut: true, text: MESSAGE.text });
    expect(message.audioMs).toBe(half.length / 8);
  });

  it('texts are read in the order they were said, and a greeting spoken into the recording shows', () => {
    // Arrange: the greeting, cut after two frames by a `clear`, then the message
    const greeting = auraSpeech(GREETING).subarray(0, 2 * FRAME_BYTES);
    const audio = join(greeting, auraSpeech(MESSAGE));
    // Act
    const message = recordedMessage(0, audio, [GREETING, MESSAGE]);
    // Assert
    expect(message.pieces).toEqual([
      { text: GREETING.text, whole: false },
      { text: MESSAGE.text, whole: true },
    ]);
    expect(message.text).toBe(`${GREETING.text} ${MESSAGE.text}`);
  });

  it('audio the voice never said on the call reads as nothing', () => {
    // Act / Assert
    expect(recordedMessage(0, auraSpeech(MESSAGE), [GREETING])).toMatchObject({ pieces: [], text: '', cut: false });
  });
});
