import type { AttributeMap, CasFailureCode } from '@tessera/core';
import { isNcName, xmlText } from './xml-text.js';

/**
 * CAS 2/3 validation responses, exactly the canonical form every measured client accepts
 * (docs/protocol.md §3.7): the literal `cas:` prefix declared on the root and `cas:user`
 * first. One element per attribute value; names that cannot be XML element names are not released.
 */
export const CAS_OPEN = '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">';
export const CAS_CLOSE = '</cas:serviceResponse>';

/** What a validation adds for proxies: the IOU of a PGT delivered, the proxies a PT passed through. */
export interface ProxyElements {
  readonly proxyGrantingTicket?: string;
  readonly proxies?: readonly string[];
}

/** The elements in the order of the CAS 3.0 schema: user, attributes, proxyGrantingTicket, proxies. */
export function casSuccessXml(user: string, attributes: AttributeMap, proxy: ProxyElements = {}): string {
  const lines = [CAS_OPEN, '  <cas:authenticationSuccess>', `    <cas:user>${xmlText(user)}</cas:user>`];
  const elements = Object.entries(attributes)
    .filter(([name]) => isNcName(name))
    .flatMap(([name, values]) => values.map((value) => `      <cas:${name}>${xmlText(value)}</cas:${name}>`));
  if (elements.length > 0) lines.push('    <cas:attributes>', ...elements, '    </cas:attributes>');
  if (proxy.proxyGrantingTicket !== undefined) lines.push(`    <cas:proxyGrantingTicket>${xmlText(proxy.proxyGrantingTicket)}</cas:proxyGrantingTicket>`);
  if (proxy.proxies !== undefined && proxy.proxies.length > 0) {
    lines.push('    <cas:proxies>', ...proxy.proxies.map((url) => `      <cas:proxy>${xmlText(url)}</cas:proxy>`), '    </cas:proxies>');
  }
  lines.push('  </cas:authenticationSuccess>', CAS_CLOSE);
  return `${lines.join('\n')}\n`;
}

export function casFailureXml(code: CasFailureCode, description: string): string {
  const failure = `  <cas:authenticationFailure code="${code}">${xmlText(description)}</cas:authenticationFailure>`;
  return `${[CAS_OPEN, failure, CAS_CLOSE].join('\n')}\n`;
}
