import { performance } from 'node:perf_hooks';

/**
 * How long a resolved workspace or bearer token is trusted without asking the database again.
 * A change made through another instance (or the CLI, or straight in the database) is seen within
 * this time; a change made through this instance is seen at once (see IdentityCache.invalidate).
 */
export const IDENTITY_TTL_MS = 1_000;

/**
 * A small map of recent lookups: entries expire after a fixed time, the least recently used goes
 * first when it is full, and clearing it also voids every lookup that was running meanwhile (a lookup
 * takes a ticket before it reads the database and may store its answer only with a current ticket),
 * so an answer read before a change can never be stored after the change cleared the map.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private generation = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= performance.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before reading the database; pass it to set. */
  ticket(): number {
    return this.generation;
  }

  /**
   * Keeps the value for the cache's lifetime, or until `notAfterMs` (epoch ms, e.g. a session's end)
   * when that comes first: a value that stops being true never outlives its truth here.
   */
  set(key: string, value: V, ticket: number, notAfterMs?: number): void {
    if (ticket !== this.generation) return;
    this.entries.delete(key);
    const now = performance.now();
    const lifetimeMs = notAfterMs === undefined ? this.ttlMs : Math.min(this.ttlMs, notAfterMs - Date.now());
    if (!(lifetimeMs > 0)) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: now + lifetimeMs });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
