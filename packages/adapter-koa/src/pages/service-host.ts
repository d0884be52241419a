/** The host a service URL points at, which tells a user more than the whole URL; the URL when it has none. */
export function serviceHost(service: string): string {
  try {
    return new URL(service).host || service;
  } catch {
    return service;
  }
}
