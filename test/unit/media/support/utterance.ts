import type { Utterance } from '../../../../media-service/src/call/speaker';

let nextId = 1;

/** An utterance as the Speaker leaves it (8 μ-law bytes are 1 ms of audio); `fields` override the defaults. */
export function utterance(fields: Partial<Utterance> = {}): Utterance {
  return {
    id: nextId++,
    kind: 'reply',
    text: 'Hello there friend',
    bytesReceived: 0,
    bytesPlayed: 0,
    flushed: false,
    finished: false,
    interrupted: false,
    done: Promise.resolve(),
    ...fields,
  };
}
