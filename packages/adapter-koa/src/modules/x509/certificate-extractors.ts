import type { EventSink } from '@tessera/core';
import { certificatesFromText, x509Credential, type CertificateIgnoredEvent, type CertificateSource, type X509Credential } from '@tessera/core/modules/x509';
import type { Socket } from 'node:net';
import { TLSSocket, type DetailedPeerCertificate } from 'node:tls';
import { credentialExtractor, type CredentialExtractor } from '../../request/credentials.js';
import { text } from '../../request/parameter-schemas.js';
import { peerAddress } from '../../request/trusted-peers.js';

/** What the form and header extractors need: which TCP peers are trusted proxies, and where ignored certificates are reported. */
export interface ProxyCertificateOptions {
  readonly trustedPeer: (address: string) => boolean;
  readonly events: EventSink;
}

/**
 * The x509 module's form extractor: parameter `cert`, PEM text (URL-encoded in the form body, as
 * `curl --data-urlencode cert@client.pem` sends it) or DER in base64. Read only from a trusted proxy.
 */
export function formCertificateExtractor(options: ProxyCertificateOptions): CredentialExtractor {
  const cert = text('The client certificate as PEM (several blocks: client first, then intermediates) or base64 DER; read only from a trusted proxy (`x509.trustedProxies`).');
  return credentialExtractor({ parameters: { cert } }, function formCertificate({ parameters, socket }) {
    return fromTrustedProxy(socket, 'form', parameters.cert, options);
  });
}

/**
 * The x509 module's header extractor (`ssl_client_cert` by default), for a TLS-terminating proxy:
 * Apache's PEM with its newlines turned into spaces, or nginx's URL-encoded `$ssl_client_escaped_cert`.
 * Blank or `(null)` (mod_headers with no client certificate) means none. Read only from a trusted proxy.
 */
export function headerCertificateExtractor(headerName: string, options: ProxyCertificateOptions): CredentialExtractor {
  const name = headerName.toLowerCase();
  const header = text('The client certificate a TLS-terminating proxy verified: PEM (newlines as spaces), or URL-encoded PEM; `(null)` or blank for none. Read only from a trusted proxy.');
  return credentialExtractor({ parameters: {}, headers: { [name]: header } }, function headerCertificate({ headers, socket }) {
    const value = headers[name];
    return fromTrustedProxy(socket, 'header', typeof value === 'string' ? value : undefined, options);
  });
}

/**
 * The x509 module's TLS extractor: the client certificate of this server's own HTTPS listener, with
 * the chain the client sent. The core validates it against its own trust anchors, whatever the
 * handshake's verdict was (the listener lets unverified clients in so they get a proper 401).
 */
export function tlsCertificateExtractor(events: EventSink): CredentialExtractor {
  return credentialExtractor({ parameters: {} }, function tlsCertificate({ socket }) {
    const chain = peerChain(socket);
    if (chain.length === 0) return [];
    return credentialOrReport(x509Credential(chain, 'tls'), 'tls', socket, events);
  });
}

function fromTrustedProxy(socket: Socket, source: CertificateSource, value: string | undefined, options: ProxyCertificateOptions): X509Credential[] {
  const sent = value?.trim();
  if (!sent || sent === '(null)') return [];
  const peer = peerAddress(socket);
  if (!options.trustedPeer(peer)) {
    // Anyone can write a form field or a header: only a trusted proxy vouches for the private key.
    options.events.emit({ type: 'x509.certificate.ignored', source, reason: 'untrusted peer', peer } satisfies CertificateIgnoredEvent);
    return [];
  }
  const chain = certificatesFromText(urlDecoded(sent));
  return credentialOrReport(chain && x509Credential(chain, source), source, socket, options.events);
}

function credentialOrReport(credential: X509Credential | undefined, source: CertificateSource, socket: Socket, events: EventSink): X509Credential[] {
  if (credential) return [credential];
  events.emit({ type: 'x509.certificate.ignored', source, reason: 'unreadable', peer: peerAddress(socket) } satisfies CertificateIgnoredEvent);
  return [];
}

/** nginx's `$ssl_client_escaped_cert` is URL-encoded PEM; PEM itself never holds `%`. */
function urlDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The peer's certificate and the issuers Node knows of it (those the client sent, and a trusted root), client first. */
function peerChain(socket: Socket): Uint8Array[] {
  if (!(socket instanceof TLSSocket)) return [];
  const chain: Buffer[] = [];
  let current: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (current?.raw && !chain.some((der) => der.equals(current!.raw))) {
    chain.push(current.raw);
    current = current.issuerCertificate;
  }
  return chain.map((der) => new Uint8Array(der));
}
