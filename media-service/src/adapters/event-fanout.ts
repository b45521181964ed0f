import type { Logger } from '../../../shared/log';
/** Receives one event; a throw is logged and does not reach the other listeners. */
export type FanoutListener<E> = (event: E) => void;

/**
 * Delivers a stream's events to its listeners, holding those raised before anyone subscribed
 * (an error right after the handshake, a message that beat the subscriber) for the first
 * subscriber, which receives them synchronously on `on()`. A listener that throws is logged
 * as `failedMessage` and the others still get the event.
 */
export class EventFanout<E extends { type: string }> {
  /**
   * Replaced, never changed in place, when a listener comes or goes: an emit reads the array it
   * started with, so it copies nothing (it runs for every 20 ms frame of every call).
   */
  #listeners: readonly FanoutListener<E>[] = [];
  #backlog: E[] | undefined = [];
  readonly #log: Logger;
  readonly #failedMessage: string;

  constructor(log: Logger, failedMessage: string) {
    this.#log = log;
    this.#failedMessage = failedMessage;
  }

  /** Subscribes; the first subscriber also receives, synchronously, the events raised before it. */
  on(listener: FanoutListener<E>): () => void {
    if (!this.#listeners.includes(listener)) this.#listeners = [...this.#listeners, listener];
    const backlog = this.#backlog;
    this.#backlog = undefined;
    for (const event of backlog ?? []) this.emit(event);
    return () => {
      this.#listeners = this.#listeners.filter((candidate) => candidate !== listener);
    };
  }

  /** Delivers `event` to every listener, or holds it until the first one subscribes. */
  emit(event: E): void {
    if (this.#backlog) {
      this.#backlog.push(event);
      return;
    }
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) {
      const listener = listeners[i]!;
      try {
        listener(event);
      } catch (error) {
        this.#log.error(this.#failedMessage, { event: event.type, error: String(error) });
      }
    }
  }
}
