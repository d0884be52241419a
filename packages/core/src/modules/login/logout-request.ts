import { deflateSync } from 'node:zlib';
import type { RandomSource } from '../../ports/random-source.js';

/** Random bytes in a logout request's ID, as CAS's `LR-` ids. */
const ID_BYTES = 18;

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * The body CAS posts to a service when a login session ends (CAS protocol 3.0, back-channel single
 * logout): a SAML 2.0 LogoutRequest whose SessionIndex is the service ticket the service validated.
 * NameID is the literal `@NOT_USED@`, as Apereo CAS sends it; clients read only the SessionIndex.
 */
export function logoutRequestXml(ticketId: string, issuedAt: number, random: RandomSource): string {
  const id = `LR-${Buffer.from(random.bytes(ID_BYTES)).toString('base64url')}`;
  const instant = new Date(Math.floor(issuedAt / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="${id}" Version="2.0" IssueInstant="${instant}">` +
    '<saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">@NOT_USED@</saml:NameID>' +
    `<samlp:SessionIndex>${ticketId.replace(/[&<>"]/g, (char) => XML_ESCAPES[char] ?? char)}</samlp:SessionIndex></samlp:LogoutRequest>`
  );
}

/**
 * A logout request as front-channel single logout carries it in the `logoutRequest` query parameter:
 * the XML deflated (zlib, as Java's default Deflater writes it) and base64-encoded, as Apereo CAS sends it.
 */
export function frontChannelLogoutRequest(xml: string): string {
  return deflateSync(Buffer.from(xml, 'utf8')).toString('base64');
}
