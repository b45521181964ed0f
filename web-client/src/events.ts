/**
 * The events a web call emits, and a small emitter for them. A listener that throws is reported
 * (as an uncaught error would be) and does not stop the others.
 */
import type { ErrorMessage, LatencyMessage, StateMessage, ToolMessage, TranscriptMessage } from './protocol';

/** Each event's payload. The server's messages arrive as they are (`type` included). */
export interface WebCallEvents {
  state: StateMessage;
  transcript: TranscriptMessage;
  latency: LatencyMessage;
  tool: ToolMessage;
  /**
   * Once per call, when it is over for this page: `reason` is the call record's `ended_reason`
   * from the server, or `connection_closed` when the socket closed without one.
   */
  ended: { type: 'ended'; reason: string };
  /** A server error message, or the client's own (`code` `connection_error`). */
  error: ErrorMessage;
  /** The microphone's level (RMS, 0 to 1) for each 20 ms frame sent, for a meter; 0 while muted. */
  level: { type: 'level'; rms: number };
}

export type WebCallEvent = keyof WebCallEvents;
export type Listener<E extends WebCallEvent> = (payload: WebCallEvents[E]) => void;

/** Listeners by event. */
export class Emitter {
  private readonly listeners = new Map<WebCallEvent, Set<(payload: never) => void>>();

  /** Adds a listener; returns the function that removes it. */
  on<E extends WebCallEvent>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (set === undefined) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit<E extends WebCallEvent>(event: E, payload: WebCallEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as Listener<E>)(payload);
      } catch (error) {
        reportError(error);
      }
    }
  }
}
