import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * What one client host is counted by, from a request's client address (RequestOrigin's `clientAddress`):
 * every limit kept per client (failed-login locks, request rates, pending authorizations) keys on it.
 * - An IPv6 address counts by its /64 network, written compressed (`2001:db8:0:7::/64`, whatever the case,
 *   the compression or the zone id of the address): one host is handed a whole /64 and may send from any
 *   of its addresses, which would otherwise each have a limit of their own.
 * - An IPv4 address counts by itself, and so does an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a
 *   dual-stack socket reports an IPv4 peer), written as the IPv4 address (`192.0.2.1`): both name one host.
 * - Anything else (no address at all) counts as it is.
 */
export function clientAddressGroup(clientAddress: string): string {
  if (!isIPv6(clientAddress)) return clientAddress;
  // The zone id (`%eth0`) names the server's interface, not the client: it is not part of the network.
  const address = ipaddr.IPv6.parse(clientAddress.split('%', 1)[0]!);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/**
 * A storage key part for a client's group (`clientAddressGroup`): a hash of it, so no address (IPv6's
 * colons included) shapes a key. The records a module bounds per client are grouped by it.
 */
export function clientAddressGroupKey(clientAddress: string): string {
  return createHash('sha256').update(clientAddressGroup(clientAddress)).digest('base64url').slice(0, 22);
}
