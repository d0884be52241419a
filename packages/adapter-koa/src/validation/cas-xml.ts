import type { AttributeMap, CasFailureCode } from '@tessera/core';
import { isNcName, xmlText } from './xml-text.js';

/**
 * CAS 2/3 validation responses, exactly the canonical form every measured client accepts
 * (docs/protocol.md §3.7): the literal `cas:` prefix declared on the root and `cas:user`
 * first. One element per attribute value; names that cannot be XML element names are not released.
 */
const OPEN = '<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">';
const CLOSE = '</cas:serviceResponse>';

export function casSuccessXml(user: string, attributes: AttributeMap): string {
  const lines = [OPEN, '  <cas:authenticationSuccess>', `    <cas:user>${xmlText(user)}</cas:user>`];
  const elements = Object.entries(attributes)
    .filter(([name]) => isNcName(name))
    .flatMap(([name, values]) => values.map((value) => `      <cas:${name}>${xmlText(value)}</cas:${name}>`));
  if (elements.length > 0) lines.push('    <cas:attributes>', ...elements, '    </cas:attributes>');
  lines.push('  </cas:authenticationSuccess>', CLOSE);
  return `${lines.join('\n')}\n`;
}

export function casFailureXml(code: CasFailureCode, description: string): string {
  const failure = `  <cas:authenticationFailure code="${code}">${xmlText(description)}</cas:authenticationFailure>`;
  return `${[OPEN, failure, CLOSE].join('\n')}\n`;
}
