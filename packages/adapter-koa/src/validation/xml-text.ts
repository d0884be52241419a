/** Characters XML 1.0 does not allow anywhere, lone surrogates included (`u` flag: one code point each). */
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Tabs, line feeds and printable ASCII but `&`, `<` and `>`: nothing to drop or escape, as most names and values are. */
const PLAIN_TEXT = /^[\t\n\u0020-\u0025\u0027-\u003B\u003D\u003F-\u007E]*$/;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  // A literal CR would be read back as LF (XML end-of-line handling).
  '\r': '&#13;',
};

/**
 * Element content: illegal characters dropped, markup escaped. Quotes stay literal so clients that
 * scrape the user with a regex still read `o'brien`; no attribute value carries outside text.
 */
export function xmlText(value: string): string {
  if (PLAIN_TEXT.test(value)) return value;
  return value.replace(ILLEGAL_XML_CHARS, '').replace(/[&<>\r]/g, (char) => ESCAPES[char] ?? char);
}

const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...ESCAPES,
  '"': '&quot;',
  // Attribute-value normalization would turn literal tabs and line feeds into spaces.
  '\t': '&#9;',
  '\n': '&#10;',
};

/** A value inside a double-quoted attribute: illegal characters dropped, everything that could end or alter it escaped. */
export function xmlAttribute(value: string): string {
  return value.replace(ILLEGAL_XML_CHARS, '').replace(/[&<>"\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

const NAME_START = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_REST = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040`;
// The classes are code point ranges (combining marks included by the spec), not characters to combine.
// eslint-disable-next-line no-misleading-character-class
const NCNAME = new RegExp(`^[${NAME_START}][${NAME_REST}]*$`, 'u');

/** An XML name without a colon (Namespaces in XML, NCName): the only names that can follow `cas:`. */
export function isNcName(name: string): boolean {
  return ASCII_NCNAME.test(name) || NCNAME.test(name);
}

/** The ASCII NCNames, as nearly every attribute name is: tried first, being cheaper than the Unicode classes. */
const ASCII_NCNAME = /^[A-Z_a-z][-.0-9A-Z_a-z]*$/;
