const TRUTHY = new Set(['true', 'yes', 'on', 'y', 't', '1']);

/** A boolean flag as CAS reads one (BooleanUtils.toBoolean plus `1`): true/yes/on/y/t/1, any case. */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && TRUTHY.has(value.trim().toLowerCase());
}
