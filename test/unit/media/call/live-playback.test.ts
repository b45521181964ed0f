import { describe, expect, it } from 'vitest';
import { LivePlayback, type PlaybackPacer } from '../../../../media-service/src/call/live-playback';

/** A pacer that only records what it is given, in order; `send(name)` plays the pacer sending a mark. */
function recordingPacer() {
  const log: (string | number)[] = [];
  const listeners: ((name: string) => void)[] = [];
  const pacer: PlaybackPacer = {
    enqueue: (mulaw) => void log.push(mulaw.length),
    mark: (name) => void log.push(`mark ${name}`),
    clear: () => void log.push('clear'),
    onMarkSent: (listener) => {
      listeners.push(listener);
      return () => void listeners.splice(listeners.indexOf(listener), 1);
    },
  };
  const send = (name: string) => listeners.forEach((listener) => listener(name));
  return { pacer, log, send };
}

describe('LivePlayback', () => {
  it('frames provider audio of any size into whole 20 ms frames, a mark after the first frame and every 200 ms', () => {
    // Arrange
    const { pacer, log } = recordingPacer();
    const playback = new LivePlayback(pacer, () => 0);
    const { utterance } = playback.item('item_1', 'reply');
    // Act
    playback.audio('item_1', new Uint8Array(1000));
    playback.audio('item_1', new Uint8Array(700));
    playback.flush('item_1');
    // Assert
    // 1000 bytes: 960 whole (40 carried); 700: 120 complete the carried frame, 480 whole (100 carried, padded at flush).
    expect(log).toEqual([160, 'mark 1:160', 800, 160, 480, 'mark 1:1600', 160, 'mark 1:end']);
    expect(utterance).toMatchObject({ bytesReceived: 1760, flushed: true, finished: false });
  });

  it('echoed marks move playback; the :end echo finishes the item', async () => {
    // Arrange
    let now = 100;
    const { pacer } = recordingPacer();
    const playback = new LivePlayback(pacer, () => now);
    const { utterance } = playback.item('item_1', 'greeting');
    playback.audio('item_1', new Uint8Array(1600));
    playback.flush('item_1');
    // Act
    playback.onMark('1:160', false);
    now = 300;
    playback.onMark('1:800', false);
    playback.onMark('1:end', false);
    await utterance.done;
    // Assert
    expect(utterance).toMatchObject({ firstPlayedAt: 100, playedAt: 300, bytesPlayed: 1600, finished: true, interrupted: false });
    expect(playback.audible).toBe(false);
  });

  it('barge-in: clears the pacer and reports the heard ms, never more than generated; clear echoes are ignored', () => {
    // Arrange
    const { pacer, log } = recordingPacer();
    const playback = new LivePlayback(pacer, () => 0);
    const { utterance } = playback.item('item_1', 'reply');
    playback.audio('item_1', new Uint8Array(2400));
    playback.onMark('1:800', false);
    // Act
    const cut = playback.interrupt();
    playback.onMark('1:1600', true);
    // Assert
    expect(log.at(-1)).toBe('clear');
    expect(cut).toEqual([{ itemId: 'item_1', utterance, heardMs: 100 }]);
    expect(utterance).toMatchObject({ interrupted: true, finished: true, bytesPlayed: 800 });
  });

  it('a finished item is never re-created by a late event', () => {
    // Arrange
    const { pacer } = recordingPacer();
    const playback = new LivePlayback(pacer, () => 0);
    const first = playback.item('item_1', 'reply').utterance;
    playback.flush('item_1');
    // Act
    const again = playback.item('item_1', 'reply');
    // Assert
    expect(again).toEqual({ utterance: first, created: false });
    expect(first.finished).toBe(true);
  });

  it('times first audio out from the mark the pacer sends after the first frame, until closed', () => {
    // Arrange
    let now = 40;
    const { pacer, send } = recordingPacer();
    const playback = new LivePlayback(pacer, () => now);
    const { utterance } = playback.item('item_1', 'reply');
    const second = playback.item('item_2', 'reply').utterance;
    playback.audio('item_1', new Uint8Array(1600));
    // Act
    send('1:800');
    const early = utterance.firstSentAt;
    send('1:160');
    now = 90;
    send('1:160');
    playback.close();
    send('2:160');
    // Assert
    expect(early).toBeUndefined();
    expect(utterance.firstSentAt).toBe(40);
    expect(second.firstSentAt).toBeUndefined();
  });
});
