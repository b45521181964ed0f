import { describe, expect, it } from 'vitest';
import { EventFanout } from '../../../../media-service/src/adapters/event-fanout';
import { createLogger } from '../../../../shared/log';

type Event = { type: 'a' | 'b'; n: number };

function fanout() {
  const lines: string[] = [];
  const events = new EventFanout<Event>(createLogger({ service: 'media', write: (line) => lines.push(line) }), 'test.listener.failed');
  return { events, lines };
}

describe('EventFanout', () => {
  it('holds events raised before the first subscriber and hands them over on subscribing, in order', () => {
    const { events } = fanout();
    events.emit({ type: 'a', n: 1 });
    events.emit({ type: 'b', n: 2 });
    const seen: number[] = [];
    events.on((e) => seen.push(e.n));
    events.emit({ type: 'a', n: 3 });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('gives an event to the listeners there when it was raised: one added meanwhile waits, one removed meanwhile still gets it', () => {
    const { events } = fanout();
    const seen: string[] = [];
    let offSecond = () => {};
    events.on((e) => {
      seen.push(`first ${e.n}`);
      if (e.n === 1) {
        offSecond();
        events.on((later) => seen.push(`third ${later.n}`));
      }
    });
    offSecond = events.on((e) => seen.push(`second ${e.n}`));
    events.emit({ type: 'a', n: 1 });
    events.emit({ type: 'a', n: 2 });
    expect(seen).toEqual(['first 1', 'second 1', 'first 2', 'third 2']);
  });

  it('subscribes a listener once however often it is added, and logs a listener that throws without stopping the others', () => {
    const { events, lines } = fanout();
    const seen: number[] = [];
    const listener = (e: Event) => seen.push(e.n);
    events.on(listener);
    const off = events.on(listener);
    events.on(() => {
      throw new Error('boom');
    });
    events.on((e) => seen.push(e.n * 10));
    events.emit({ type: 'b', n: 1 });
    off();
    events.emit({ type: 'b', n: 2 });
    expect(seen).toEqual([1, 10, 20]);
    expect(lines.map((line) => JSON.parse(line) as { message: string; event: string; error: string })).toEqual([
      expect.objectContaining({ message: 'test.listener.failed', event: 'b', error: 'Error: boom' }),
      expect.objectContaining({ message: 'test.listener.failed', event: 'b', error: 'Error: boom' }),
    ]);
  });
});
