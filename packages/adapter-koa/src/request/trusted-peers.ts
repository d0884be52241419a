import { BlockList, isIP, type Socket } from 'node:net';

/** The TCP peer of a request (never X-Forwarded-For), an IPv4-mapped IPv6 address as plain IPv4. */
export function peerAddress(socket: Pick<Socket, 'remoteAddress'>): string {
  return plainAddress(socket.remoteAddress ?? '');
}

/**
 * Whether an address is one of `entries`: addresses and CIDR ranges, IPv4 or IPv6, as
 * `x509.trustedProxies` lists them (Node's BlockList does the matching). Throws on an entry that is
 * neither, naming it; the configuration has refused those already.
 */
export function trustedPeers(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = plainAddress(entry.trim()).split('/');
    const type = familyOf(address);
    const bits = Number(prefix);
    if (type === undefined || rest.length > 0 || (prefix !== undefined && !(/^\d+$/.test(prefix) && bits <= (type === 'ipv4' ? 32 : 128)))) {
      throw new Error(`not an IP address or CIDR range: ${entry}`);
    }
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  // BlockList builds a SocketAddress per check; the same few proxies ask at every request.
  const verdicts = new Map<string, boolean>();
  return (address) => {
    let trusted = verdicts.get(address);
    if (trusted === undefined) {
      const plain = plainAddress(address);
      const type = familyOf(plain);
      trusted = type !== undefined && list.check(plain, type);
      if (verdicts.size >= REMEMBERED_VERDICTS) verdicts.clear();
      verdicts.set(address, trusted);
    }
    return trusted;
  };
}

/** Peer addresses whose verdict is kept; the table starts over when full (many clients connecting directly). */
const REMEMBERED_VERDICTS = 1024;

function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

function familyOf(address: string): 'ipv4' | 'ipv6' | undefined {
  const family = isIP(address);
  return family === 4 ? 'ipv4' : family === 6 ? 'ipv6' : undefined;
}
