import { EqualityFilter } from 'ldapts';

/** ldapts's RFC 4515 value escaping (`*`, `(`, `)`, `\`, NUL → `\2a` …) lives on its Filter class. */
const filterEscaper = new EqualityFilter({ attribute: 'uid', value: '' });

/** A value made safe to place inside a search filter (RFC 4515 §3): it can only ever match literally. */
export function escapeFilterValue(value: string): string {
  return filterEscaper.escape(value);
}

/**
 * A value made safe as an attribute value inside a DN (RFC 4514 §2.4). ldapts's own RDN escaping
 * quotes values with edge spaces (RFC 2253 style) and is private, so this is the RFC's rule.
 */
export function escapeDnValue(value: string): string {
  let escaped = '';
  for (const [index, character] of [...value].entries()) {
    if (character === '\0') escaped += '\\00';
    else if ('"+,;<>\\='.includes(character)) escaped += `\\${character}`;
    else if (index === 0 && (character === ' ' || character === '#')) escaped += `\\${character}`;
    else escaped += character;
  }
  return escaped.endsWith(' ') && value.length > 0 ? `${escaped.slice(0, -1)}\\ ` : escaped;
}

/** The template with every `{user}` replaced by the escaped username. */
export function fillTemplate(template: string, username: string, escape: (value: string) => string): string {
  const safe = escape(username);
  return template.replaceAll('{user}', () => safe);
}
