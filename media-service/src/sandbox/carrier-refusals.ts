import type { TwilioErrorAnswer } from './carrier-rest';
import { sandboxRefusalFor } from './sandbox-numbers';

/**
 * The special numbers that refuse a create-call request before any call exists
 * (sandbox-numbers.ts): a server error every time, or a throttle that refuses each caller a set
 * number of times and then lets the call through.
 */
export class CreateRefusals {
  /** Create-call requests refused so far by a throttling number, by caller and number. */
  readonly #throttled = new Map<string, number>();

  /** The refusal to answer a request from `from` to `to`, or undefined to place the call. */
  refusal(to: string, from: string): TwilioErrorAnswer | undefined {
    const refusal = sandboxRefusalFor(to);
    if (refusal?.kind === 'server-error') return { status: 500, code: 20500, message: 'Internal Server Error' };
    if (refusal?.kind !== 'throttled') return undefined;
    const key = `${from} ${to}`;
    const refused = this.#throttled.get(key) ?? 0;
    if (refused >= refusal.times) {
      this.#throttled.delete(key);
      return undefined;
    }
    if (this.#throttled.size >= 10_000) this.#throttled.clear(); // bounded: a sandbox, not a ledger
    this.#throttled.set(key, refused + 1);
    return { status: 429, code: 20429, message: 'Too Many Requests' };
  }
}
