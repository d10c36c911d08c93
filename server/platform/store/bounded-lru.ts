/**
 * A least-recently-used map bounded by entry count and by total size (bytes as the caller counts
 * them). Setting a value evicts the least recently used entries until both bounds hold again; a
 * value larger than `maxBytes / MAX_SHARE_OF_BYTES` is not kept at all, so that one huge page
 * cannot flush every hot one. Relies on Map's insertion order: the first key is the oldest.
 */
export interface BoundedLru<K, V> {
  /** The value, marked as the most recently used. */
  get(key: K): V | undefined;
  /** The value without touching its recency. */
  peek(key: K): V | undefined;
  /** Keeps `value` (replacing what `key` held); false when it is too large to keep. */
  set(key: K, value: V, bytes: number): boolean;
  delete(key: K): boolean;
  /** Removes every entry whose value `drop` picks; returns how many. */
  deleteWhere(drop: (value: V) => boolean): number;
  clear(): void;
  readonly size: number;
  readonly bytes: number;
}

/** One value may take at most this share (1/n) of the byte budget. */
const MAX_SHARE_OF_BYTES = 4;

export function createBoundedLru<K, V>({
  maxEntries,
  maxBytes,
}: {
  maxEntries: number;
  maxBytes: number;
}): BoundedLru<K, V> {
  const entries = new Map<K, { value: V; bytes: number }>();
  let total = 0;

  const remove = (key: K) => {
    const found = entries.get(key);
    if (found === undefined) return false;
    entries.delete(key);
    total -= found.bytes;
    return true;
  };

  return {
    get(key) {
      const found = entries.get(key);
      if (found === undefined) return undefined;
      entries.delete(key);
      entries.set(key, found);
      return found.value;
    },
    peek: (key) => entries.get(key)?.value,
    set(key, value, bytes) {
      remove(key);
      if (maxEntries <= 0 || bytes > maxBytes / MAX_SHARE_OF_BYTES) return false;
      entries.set(key, { value, bytes });
      total += bytes;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && total <= maxBytes) break;
        remove(oldest);
      }
      return true;
    },
    delete: remove,
    deleteWhere(drop) {
      let removed = 0;
      for (const [key, found] of [...entries]) if (drop(found.value) && remove(key)) removed += 1;
      return removed;
    },
    clear() {
      entries.clear();
      total = 0;
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return total;
    },
  };
}

/**
 * Roughly what a JSON-like value takes in memory: two bytes per string character (V8 may keep
 * one, but the bound must hold either way), eight per number, plus a little per key and element.
 */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return 2 * value.length;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined)
    return 8;
  if (value instanceof Date) return 16;
  if (Array.isArray(value)) {
    let sum = 16;
    for (const item of value) sum += 8 + approximateBytes(item);
    return sum;
  }
  if (typeof value === 'object') {
    let sum = 16;
    for (const [key, item] of Object.entries(value)) sum += 16 + 2 * key.length + approximateBytes(item);
    return sum;
  }
  return 8;
}
