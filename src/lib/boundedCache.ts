/**
 * A Map that holds at most `max` entries: adding one beyond forgets the oldest added (insertion
 * order). Every cache kept for the life of the process is one of these, its bound written where it
 * is made, so that a server's memory cannot grow with what requests ask for.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a cache bound must be a positive integer, not ${max}`);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): this {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}
