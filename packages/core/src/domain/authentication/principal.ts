/** Attribute name → values. Always multi-valued, as CAS releases them. */
export type AttributeMap = Readonly<Record<string, readonly string[]>>;

export interface Principal {
  readonly id: string;
  readonly attributes: AttributeMap;
}

/** Union of values per attribute name, keeping first-seen order and dropping duplicates. */
export function mergeAttributes(...maps: readonly AttributeMap[]): AttributeMap {
  const merged: Record<string, string[]> = {};
  for (const map of maps) {
    for (const [name, values] of Object.entries(map)) {
      const target = (merged[name] ??= []);
      for (const value of values) if (!target.includes(value)) target.push(value);
    }
  }
  return merged;
}
