/**
 * A Map that holds at most `capacity` entries: setting a new key past it drops the oldest entry
 * (insertion order; a key set again moves to the newest end). Memory stays bounded whatever keys
 * clients send.
 *
 * @example
 * const seen = new BoundedMap<string, number>(10_000);
 * seen.set(keyHash, expiresAt);
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  get size(): number {
    return this.#entries.size;
  }
}
