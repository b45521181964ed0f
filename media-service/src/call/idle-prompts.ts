import type { CallContext } from './call-context';

/**
 * The idle messages said when the caller stays silent (`silence_timeout_s`): each in turn, at most
 * `idle_max` in a row; once they are spent the call ends `silence_timeout`. Caller words reset the count.
 */
export class IdlePrompts {
  readonly #context: CallContext;
  #count = 0;

  constructor(context: CallContext) {
    this.#context = context;
  }

  /** The message to say now, or undefined when the call should end instead. */
  next(): string | undefined {
    const messages = this.#context.script.idleMessages;
    if (this.#count >= this.#context.config.advanced.idle_max || messages.length === 0) return undefined;
    const text = messages[this.#count % messages.length]!;
    this.#count++;
    return text;
  }

  /** The caller spoke: the next silence starts the messages over. */
  reset(): void {
    this.#count = 0;
  }
}
