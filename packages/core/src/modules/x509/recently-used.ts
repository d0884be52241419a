/**
 * Sets `key` to `value` as the most recently used entry of `map` (a Map keeps insertion order),
 * first dropping the least recently used one when `map` already holds `limit` other entries.
 */
export function setMostRecent<Key, Value>(map: Map<Key, Value>, key: Key, value: Value, limit: number): void {
  map.delete(key);
  if (map.size >= limit) map.delete(map.keys().next().value!);
  map.set(key, value);
}
