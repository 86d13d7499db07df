// Small helpers for Maps, shared by the sandbox's models (which may import src/util).

/** The value of `key` in `map`, set to make() first when missing. */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
