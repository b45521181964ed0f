import type { Pacer, PacerSink } from '../pipeline/pacer';
import { FrameMarker, isFirstFrameMark, parseMark } from './frame-marker';
import type { Utterance, UtteranceKind } from './speaker';

/** The slice of the pacer playback needs (the real `Pacer`, or a recorder in tests). */
export type PlaybackPacer = Pick<PacerSink, 'clear'> &
  Pick<Pacer, 'onMarkSent'> & { enqueue(mulaw: Uint8Array): void; mark(name: string): void };

/** What a barge-in cut of one provider item: how much of it the caller heard. */
export interface CutItem {
  itemId: string;
  utterance: Utterance;
  /** Heard audio (echoed marks), never more than the audio generated: safe for `conversation.item.truncate`. */
  heardMs: number;
}

interface Entry {
  itemId: string;
  utterance: Utterance;
  resolve: () => void;
  /** Per item: items may interleave, and each one's tail is padded at its own flush. */
  framer: FrameMarker;
}

/**
 * Live mode's playback: provider audio arrives per output item (already μ-law, not paced) and is
 * framed into the pacer as whole 20 ms frames with a mark after the first frame and every 200 ms,
 * so echoed marks say how much of each item the caller heard (docs/protocols.md "Twilio").
 * Items become {@link Utterance}s, so the transcript log and turn metrics work as in standard mode.
 */
export class LivePlayback {
  readonly #pacer: PlaybackPacer;
  readonly #now: () => number;
  readonly #entries: Entry[] = [];
  /** Every item seen, finished or not, so a late event never re-creates a finished one. */
  readonly #seen = new Map<string, Utterance>();
  #nextId = 1;
  readonly #offMarks: () => void;

  constructor(pacer: PlaybackPacer, now: () => number) {
    this.#pacer = pacer;
    this.#now = now;
    this.#offMarks = pacer.onMarkSent((name) => this.#onMarkSent(name));
  }

  /** True while any item is playing or queued. */
  get audible(): boolean {
    return this.#entries.some((entry) => !entry.utterance.finished && entry.utterance.bytesReceived > 0);
  }

  /** The utterance of `itemId`, created on first sight (transcript deltas may precede audio). */
  item(itemId: string, kind: UtteranceKind): { utterance: Utterance; created: boolean } {
    const found = this.#seen.get(itemId);
    if (found) return { utterance: found, created: false };
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const utterance: Utterance = {
      id: this.#nextId++,
      kind,
      text: '',
      bytesReceived: 0,
      bytesPlayed: 0,
      flushed: false,
      finished: false,
      interrupted: false,
      done,
    };
    this.#entries.push({ itemId, utterance, resolve, framer: new FrameMarker(this.#pacer, this.#now) });
    this.#seen.set(itemId, utterance);
    return { utterance, created: true };
  }

  /** Queues audio of `itemId` (whole frames; a partial tail waits for more or for `flush`). */
  audio(itemId: string, mulaw: Uint8Array): void {
    const entry = this.#entry(itemId);
    if (!entry) return;
    entry.framer.audio(entry.utterance, mulaw);
  }

  /** No more audio for `itemId`: pads the tail and marks its end (or finishes it at once when silent). */
  flush(itemId: string): void {
    const entry = this.#entry(itemId);
    if (!entry) return;
    if (!entry.framer.flush(entry.utterance)) this.#finish(entry);
  }

  /** Barge-in: clears the pacer (and the carrier), finishes every unfinished item, reports what was heard. */
  interrupt(): CutItem[] {
    const cut = this.#entries.filter((entry) => !entry.utterance.finished);
    if (cut.length === 0) return [];
    this.#pacer.clear();
    return cut.map((entry) => {
      const u = entry.utterance;
      u.interrupted = u.bytesPlayed < u.bytesReceived || !u.flushed;
      entry.framer.clear();
      this.#finish(entry);
      return { itemId: entry.itemId, utterance: u, heardMs: Math.floor(Math.min(u.bytesPlayed, u.bytesReceived) / 8) };
    });
  }

  /** A mark came back from the carrier (marks echoed by a `clear` prove nothing and are ignored). */
  onMark(name: string, afterClear: boolean): void {
    if (afterClear) return;
    const { utteranceId, position } = parseMark(name);
    const entry = this.#entries.find((candidate) => candidate.utterance.id === utteranceId);
    if (!entry || entry.utterance.finished) return;
    const u = entry.utterance;
    const now = this.#now();
    u.firstPlayedAt ??= now;
    if (position !== 'end') {
      u.bytesPlayed = Math.max(u.bytesPlayed, Number(position));
      return;
    }
    u.bytesPlayed = u.bytesReceived;
    u.playedAt = now;
    this.#finish(entry);
  }

  /** The pacer sent a mark (subscribed at construction): the one after an item's first frame times its first audio out. */
  #onMarkSent(name: string): void {
    const { utteranceId, position } = parseMark(name);
    if (!isFirstFrameMark(position)) return;
    const entry = this.#entries.find((candidate) => candidate.utterance.id === utteranceId);
    if (entry) entry.utterance.firstSentAt ??= this.#now();
  }

  /** Finishes everything and stops listening to the pacer (the call is over). */
  close(): void {
    this.#offMarks();
    for (const entry of [...this.#entries]) this.#finish(entry);
  }

  #entry(itemId: string): Entry | undefined {
    const entry = this.#entries.find((candidate) => candidate.itemId === itemId);
    return entry && !entry.utterance.finished ? entry : undefined;
  }

  #finish(entry: Entry): void {
    if (entry.utterance.finished) return;
    entry.utterance.finished = true;
    entry.resolve();
    const index = this.#entries.indexOf(entry);
    if (index >= 0) this.#entries.splice(index, 1);
  }
}
