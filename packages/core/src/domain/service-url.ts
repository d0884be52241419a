/**
 * Service comparison key for validation (as CAS's DefaultServiceMatchingStrategy): percent-decoded,
 * fragment removed, case-insensitive.
 */
export function serviceComparisonKey(service: string): string {
  const decoded = safeDecode(service);
  const hash = decoded.indexOf('#');
  return (hash >= 0 ? decoded.slice(0, hash) : decoded).toLowerCase();
}

export function sameService(a: string, b: string): boolean {
  return serviceComparisonKey(a) === serviceComparisonKey(b);
}

/** decodeURIComponent that leaves malformed escapes as they are instead of throwing. */
export function safeDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
