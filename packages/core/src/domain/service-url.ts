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
function safeDecode(value: string): string {
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

/**
 * The longest service URL tessera accepts, in UTF-8 bytes (8 KiB): one is stored with each ticket and
 * each single-logout record, and matched against the service patterns. Longer ones are refused
 * wherever a service URL comes in.
 */
export const MAX_SERVICE_URL_BYTES = 8192;

export function serviceUrlTooLong(service: string): boolean {
  // A UTF-16 unit is at least one UTF-8 byte, and at most three.
  if (service.length > MAX_SERVICE_URL_BYTES) return true;
  return service.length * 3 > MAX_SERVICE_URL_BYTES && Buffer.byteLength(service, 'utf8') > MAX_SERVICE_URL_BYTES;
}
