/** A list of strings, plain or wrapped as CAS writes one, `["java.util.HashSet", [...]]`; undefined when it is not one. */
export function stringList(value: unknown): string[] | undefined {
  const list = unwrapJavaCollection(value);
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return undefined;
  return list;
}

function unwrapJavaCollection(value: unknown): unknown {
  if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && value[0].startsWith('java.util.') && Array.isArray(value[1])) {
    return value[1];
  }
  return value;
}

/** A set as CAS writes one. */
export function javaSet(values: readonly string[]): unknown[] {
  return ['java.util.HashSet', [...values]];
}

/** A list as CAS writes one. */
export function javaList(values: readonly string[]): unknown[] {
  return ['java.util.ArrayList', [...values]];
}
