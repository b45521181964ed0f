import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../shared/errors';
import { FRAME_BYTES, MULAW_SILENCE } from '../../../../media-service/src/audio/mulaw';
import { settled, speakerRig as setup } from '../support/speaker-rig';

describe('Speaker framing and marks', () => {
  describe.each([
    { chunks: [160], marks: ['1:160', '1:end'], received: 160 },
    { chunks: [800], marks: ['1:160', '1:end'], received: 800 },
    { chunks: [1600], marks: ['1:160', '1:1600', '1:end'], received: 1600 },
    { chunks: [2000], marks: ['1:160', '1:1600', '1:end'], received: 2080 },
    { chunks: [3200], marks: ['1:160', '1:1600', '1:3200', '1:end'], received: 3200 },
    { chunks: [100, 100], marks: ['1:160', '1:end'], received: 320 },
    { chunks: [960, 960], marks: ['1:160', '1:1600', '1:end'], received: 1920 },
    { chunks: [500, 500, 500, 500], marks: ['1:160', '1:1600', '1:end'], received: 2080 },
    { chunks: [100, 30, 1500], marks: ['1:160', '1:1600', '1:end'], received: 1760 },
    { chunks: [150, 10, 170, 1290], marks: ['1:160', '1:1600', '1:end'], received: 1760 },
  ])('audio chunks $chunks', ({ chunks, marks: expectedMarks, received }) => {
    it('are sent as whole 160-byte frames with a mark after the first frame, every 1600 bytes and at the end', () => {
      // Arrange
      const { tts, speaker, play, marks, frames } = setup();
      const utterance = speaker.say('reply', 'Hello there.');
      // Act
      for (const bytes of chunks) tts.audio(bytes);
      tts.flushed();
      play(2000);
      // Assert
      expect(marks()).toEqual(expectedMarks);
      expect(frames.every((frame) => frame.length === FRAME_BYTES)).toBe(true);
      expect(frames).toHaveLength(received / FRAME_BYTES);
      expect(utterance).toMatchObject({ bytesReceived: received, flushed: true, finished: false });
    });
  });

  it('carries a partial tail into the next chunk and pads the last one with μ-law silence on flush', () => {
    // Arrange
    const { tts, speaker, play, frames, sent } = setup();
    speaker.say('reply', 'Hi.');
    const audio = Uint8Array.from({ length: 500 }, (_, i) => i % 200);
    // Act
    tts.audio(audio.subarray(0, 250));
    tts.audio(audio.subarray(250));
    tts.flushed();
    play(1000);
    // Assert
    expect(sent).toEqual(['a160', '1:160', 'a160', 'a160', 'a160', '1:end']);
    const joined = new Uint8Array(frames.flatMap((frame) => [...frame]));
    expect(joined.subarray(0, 500)).toEqual(audio);
    expect(joined.subarray(500).every((byte) => byte === MULAW_SILENCE)).toBe(true);
  });

  it('with a kick, a reply’s first frame goes out when it is queued, not at the next tick', () => {
    // Arrange
    const { tts, speaker, sent } = setup((text) => text, { kick: true });
    const utterance = speaker.begin('reply');
    speaker.push(utterance, 'Hi.');
    // Act
    tts.audio(new Uint8Array(480));
    // Assert: no tick has run, yet the first frame and its mark are out
    expect(sent.slice(0, 2)).toEqual(['a160', `${utterance.id}:160`]);
  });

  it('sends no :end mark and finishes at once when a flush brings no audio', async () => {
    // Arrange
    const { tts, speaker, play, sent } = setup();
    const utterance = speaker.say('reply', 'Hi.');
    // Act
    tts.flushed();
    play(100);
    // Assert
    expect(sent).toEqual([]);
    expect(utterance).toMatchObject({ flushed: true, finished: true });
    expect(await settled(utterance.done)).toBe(true);
  });
});

describe('Speaker playback tracking', () => {
  it('times first audio in, queued, sent and heard, counts heard bytes from marks, and finishes on :end', async () => {
    // Arrange
    const { tts, clock, speaker, play } = setup();
    clock.now = 1000;
    const utterance = speaker.say('reply', 'Hello there.');
    clock.now = 1250;
    tts.audio(1600);
    tts.flushed();
    play(500);
    // Act
    clock.now = 2000;
    speaker.onMark('1:160', false);
    const afterFirst = { ...utterance };
    clock.now = 2100;
    speaker.onMark('1:800', false);
    speaker.onMark('1:160', false);
    const afterSecond = { ...utterance };
    clock.now = 2300;
    speaker.onMark('1:end', false);
    // Assert
    expect(afterFirst).toMatchObject({
      requestedAt: 1000,
      firstByteMs: 250,
      firstQueuedAt: 1250,
      firstSentAt: 1260,
      firstPlayedAt: 2000,
      bytesPlayed: 160,
    });
    expect(afterSecond.bytesPlayed).toBe(800);
    expect(utterance).toMatchObject({ bytesPlayed: 1600, firstPlayedAt: 2000, playedAt: 2300, finished: true, interrupted: false });
    expect(await settled(utterance.done)).toBe(true);
    expect(speaker.speaking).toBe(false);
  });

  it('prefers the TTS-reported time to first byte', () => {
    // Arrange
    const { tts, clock, speaker } = setup();
    const utterance = speaker.say('reply', 'Hi.');
    clock.now = 900;
    // Act
    tts.audio(160, 312);
    // Assert
    expect(utterance.firstByteMs).toBe(312);
  });

  describe.each([
    { name: 'echo after a clear', mark: '1:800', afterClear: true },
    { name: 'unknown utterance', mark: '9:800', afterClear: false },
    { name: 'not a speaker mark', mark: 'greeting', afterClear: false },
  ])('ignores an $name', ({ mark, afterClear }) => {
    it('leaves the utterance as it was', () => {
      // Arrange
      const { tts, speaker, play } = setup();
      const utterance = speaker.say('reply', 'Hello there.');
      tts.audio(1600);
      tts.flushed();
      play(500);
      // Act
      speaker.onMark(mark, afterClear);
      // Assert
      expect(utterance).toMatchObject({ bytesPlayed: 0, finished: false });
      expect(utterance.firstPlayedAt).toBeUndefined();
    });
  });

  it('sets firstSentAt only from the mark after the first frame', () => {
    // Arrange
    const { clock, speaker } = setup();
    const utterance = speaker.say('reply', 'Hi.');
    clock.now = 500;
    // Act
    speaker.onMarkSent('1:800');
    speaker.onMarkSent('1:end');
    const before = utterance.firstSentAt;
    speaker.onMarkSent('1:160');
    clock.now = 600;
    speaker.onMarkSent('1:160');
    // Assert
    expect(before).toBeUndefined();
    expect(utterance.firstSentAt).toBe(500);
  });
});

describe('Speaker barge-in', () => {
  it('clears the TTS and the pacer, marks the cut utterance interrupted and drops what was not sent', async () => {
    // Arrange
    const { tts, speaker, play, sent, marks, pacer } = setup();
    const utterance = speaker.say('reply', 'Hello there, how are you today?');
    tts.audio(3200);
    play(40);
    speaker.onMark('1:160', false);
    // Act
    const cut = speaker.interrupt();
    speaker.onMark('1:800', true);
    tts.audio(800);
    tts.flushed();
    play(1000);
    // Assert
    expect(cut).toEqual([utterance]);
    expect(tts.log.at(-1)).toBe('clear');
    expect(sent.filter((item) => item === 'clear')).toHaveLength(1);
    expect(sent.slice(sent.indexOf('clear') + 1)).toEqual([]);
    expect(marks()).not.toContain('1:end');
    expect(pacer.queuedMs).toBe(0);
    expect(utterance).toMatchObject({ interrupted: true, finished: true, bytesPlayed: 160 });
    expect(await settled(utterance.done)).toBe(true);
    expect(speaker.speaking).toBe(false);
  });

  describe.each([
    { name: 'fully heard, :end not yet echoed', audio: 800, echo: '1:800', flushed: true, interrupted: false },
    { name: 'fully received, partly heard', audio: 1600, echo: '1:800', flushed: true, interrupted: true },
    { name: 'heard so far, more text coming', audio: 800, echo: '1:800', flushed: false, interrupted: true },
  ])('$name', ({ audio, echo, flushed, interrupted }) => {
    it(`is ${interrupted ? '' : 'not '}marked interrupted`, () => {
      // Arrange
      const { tts, speaker, play } = setup();
      const utterance = speaker.say('reply', 'Hello there.');
      tts.audio(audio);
      if (flushed) tts.flushed();
      play(1000);
      speaker.onMark(echo, false);
      // Act
      speaker.interrupt();
      // Assert
      expect(utterance).toMatchObject({ interrupted, finished: true });
    });
  });

  it('does nothing when nothing is playing', () => {
    // Arrange
    const { tts, speaker, sent } = setup();
    // Act
    const cut = speaker.interrupt();
    // Assert
    expect(cut).toEqual([]);
    expect(tts.log).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('drops a partial frame left from the cut utterance, so the next one starts on a clean frame', () => {
    // Arrange
    const { tts, speaker, play, frames } = setup();
    speaker.say('reply', 'Hello there.');
    tts.audio(new Uint8Array(100).fill(1));
    speaker.interrupt();
    // Act
    speaker.say('reply', 'Sorry, go ahead.');
    tts.audio(new Uint8Array(FRAME_BYTES).fill(7));
    tts.flushed();
    play(200);
    // Assert
    expect(frames).toHaveLength(1);
    expect(frames[0]!.every((byte) => byte === 7)).toBe(true);
  });
});

describe('Speaker text and order', () => {
  it('attributes audio in TTS text order: a filler said while the reply has no text yet plays first', () => {
    // Arrange
    const { tts, speaker, play, marks } = setup();
    const reply = speaker.begin('reply');
    const filler = speaker.say('filler', 'One moment.');
    speaker.push(reply, 'Sure, Monday works.');
    speaker.end(reply);
    // Act
    tts.audio(160);
    tts.flushed();
    tts.audio(320);
    tts.flushed();
    play(1000);
    // Assert
    expect(tts.log).toEqual(['speak:One moment. ', 'flush', 'speak:Sure, Monday works. ', 'flush']);
    expect(marks()).toEqual([`${filler.id}:160`, `${filler.id}:end`, `${reply.id}:160`, `${reply.id}:end`]);
    expect(filler.bytesReceived).toBe(160);
    expect(reply.bytesReceived).toBe(320);
    expect(speaker.speaking).toBe(true);
  });

  it('sends the spoken form, keeps the written text, and counts the characters sent', () => {
    // Arrange
    const { tts, speaker } = setup((text) => text.replace('Dr.', 'Doctor'));
    const utterance = speaker.begin('reply');
    // Act
    speaker.push(utterance, ' Dr. Lee can see you. ');
    speaker.push(utterance, 'Is 9 ok?');
    // Assert
    expect(tts.log).toEqual(['speak:Doctor Lee can see you. ', 'speak:Is 9 ok? ']);
    expect(utterance.text).toBe('Dr. Lee can see you. Is 9 ok?');
    expect(speaker.charactersSent).toBe('Doctor Lee can see you.'.length + 'Is 9 ok?'.length);
  });

  it('finishes an utterance with nothing to say at once, without touching the TTS', async () => {
    // Arrange
    const { tts, speaker } = setup((text) => text.replace(/\*/g, ''));
    // Act
    const utterance = speaker.say('reply', ' ** ');
    // Assert
    expect(tts.log).toEqual([]);
    expect(utterance).toMatchObject({ finished: true, interrupted: false });
    expect(speaker.charactersSent).toBe(0);
    expect(await settled(utterance.done)).toBe(true);
  });

  it('ignores text pushed into a finished utterance', () => {
    // Arrange
    const { tts, speaker } = setup();
    const utterance = speaker.begin('reply');
    speaker.push(utterance, 'Hello.');
    speaker.interrupt();
    // Act
    speaker.push(utterance, 'More.');
    speaker.end(utterance);
    // Assert
    expect(tts.log).toEqual(['speak:Hello. ', 'clear']);
    expect(utterance.text).toBe('Hello.');
  });
});

describe('Speaker failures and close', () => {
  it('reports a TTS error and a closed stream as failures', () => {
    // Arrange
    const { tts, failures } = setup();
    const error = new ProviderError('deepgram', 'socket dropped', 1011);
    // Act
    tts.error(error);
    tts.emit({ type: 'closed' });
    // Assert
    expect(failures[0]).toBe(error);
    expect(failures[1]?.message).toMatch(/closed/);
  });

  it('ignores a provider clear confirmation', () => {
    // Arrange
    const { tts, failures } = setup();
    // Act
    tts.emit({ type: 'cleared' });
    // Assert
    expect(failures).toEqual([]);
  });

  it('on close stops listening and finishes whatever was pending', async () => {
    // Arrange
    const { tts, speaker, failures } = setup();
    const utterance = speaker.say('reply', 'Hello.');
    // Act
    speaker.close();
    tts.error(new ProviderError('deepgram', 'late'));
    // Assert
    expect(tts.listenerCount).toBe(0);
    expect(failures).toEqual([]);
    expect(await settled(utterance.done)).toBe(true);
  });
});
