/** A list of strings, plain or wrapped as CAS writes one, `["java.util.HashSet", [...]]`; undefined when it is not one. */
export function stringList(value: unknown): string[] | undefined {
  const list = unwrapJavaCollection(value);
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return undefined;
  return list;
}

/** The members of a list, plain or wrapped as CAS writes one; undefined when it is not one. */
export function javaMembers(value: unknown): unknown[] | undefined {
  const list = unwrapJavaCollection(value);
  return Array.isArray(list) ? list : undefined;
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
export function javaList(values: readonly unknown[]): unknown[] {
  return ['java.util.ArrayList', [...values]];
}

/** An int as Jackson reads one: a number, or a string holding one (`"1500"`); undefined when it is neither. */
export function javaInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}
