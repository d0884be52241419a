import * as asn1js from 'asn1js';
import type { RelativeDistinguishedNames } from 'pkijs';

/** The attribute type keywords RFC 2253 §2.3 defines; any other type is written as its dotted OID. */
const RFC2253_KEYWORDS: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
  '2.5.4.9': 'STREET',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
};

/** Subject attributes released as principal attributes, by their LDAP names (RFC 4519, inetOrgPerson). */
const LDAP_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'cn',
  '2.5.4.4': 'sn',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'c',
  '2.5.4.7': 'l',
  '2.5.4.8': 'st',
  '2.5.4.9': 'street',
  '2.5.4.10': 'o',
  '2.5.4.11': 'ou',
  '2.5.4.12': 'title',
  '2.5.4.42': 'givenName',
  '0.9.2342.19200300.100.1.25': 'dc',
  '0.9.2342.19200300.100.1.1': 'uid',
  '1.2.840.113549.1.9.1': 'mail',
};

interface AttributeValue {
  readonly type: string;
  readonly value: asn1js.AsnType;
}

/**
 * The name in RFC 2253 form, as Java's `X500Principal.getName()` (what CAS calls SUBJECT_DN): the
 * most specific RDN first, `,` between RDNs, `+` inside one, known keywords, other types as
 * `OID=#<hex of the value's DER>`, and special characters escaped.
 */
export function rfc2253(name: RelativeDistinguishedNames): string {
  let text = written.get(name);
  if (text === undefined) {
    text = relativeNames(name)
      .reverse()
      .map((rdn) => rdn.map(formatAttribute).join('+'))
      .join(',');
    written.set(name, text);
  }
  return text;
}

/**
 * The RFC 2253 form of each name already written: decoding a name costs more than the rest of a
 * certificate login once its chain is remembered, and parsed certificates (with their names) are
 * kept between requests, so their names are written once.
 */
const written = new WeakMap<RelativeDistinguishedNames, string>();

/** The name's attributes with an LDAP name and a string value, most specific first (as in the RFC 2253 form). */
export function ldapFields(name: RelativeDistinguishedNames): { name: string; value: string }[] {
  return relativeNames(name)
    .reverse()
    .flat()
    .flatMap(({ type, value }) => {
      const ldapName = LDAP_NAMES[type];
      const text = stringValue(value);
      return ldapName === undefined || text === undefined ? [] : [{ name: ldapName, value: text }];
    });
}

/** Name ::= SEQUENCE OF RelativeDistinguishedName; RDN ::= SET OF AttributeTypeAndValue (RFC 5280 §4.1.2.4). */
function relativeNames(name: RelativeDistinguishedNames): AttributeValue[][] {
  const decoded = asn1js.fromBER(name.valueBeforeDecode.byteLength > 0 ? name.valueBeforeDecode : name.toSchema().toBER());
  if (decoded.offset === -1 || !(decoded.result instanceof asn1js.Sequence)) throw new Error('Not a distinguished name');
  return decoded.result.valueBlock.value.map((rdn) => {
    if (!(rdn instanceof asn1js.Set)) throw new Error('Not a relative distinguished name');
    return rdn.valueBlock.value.map((pair) => {
      const [type, value] = pair instanceof asn1js.Sequence ? pair.valueBlock.value : [];
      if (!(type instanceof asn1js.ObjectIdentifier) || value === undefined) throw new Error('Not an attribute type and value');
      return { type: type.getValue(), value };
    });
  });
}

function formatAttribute({ type, value }: AttributeValue): string {
  const keyword = RFC2253_KEYWORDS[type];
  const text = stringValue(value);
  if (keyword === undefined || text === undefined) return `${type}=#${Buffer.from(value.toBER()).toString('hex')}`;
  return `${keyword}=${escapeValue(text)}`;
}

function stringValue(value: asn1js.AsnType): string | undefined {
  return value instanceof asn1js.BaseStringBlock ? value.getValue() : undefined;
}

/** RFC 2253 §2.4: `,+"\<>;` escaped, a leading `#` or space and a trailing space too; control characters as `\XX`. */
function escapeValue(text: string): string {
  const characters = Array.from(text);
  return characters
    .map((c, index) => {
      if (/[,+"\\<>;]/.test(c)) return `\\${c}`;
      if (c < ' ') return `\\${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;
      const leading = index === 0 && (c === '#' || c === ' ');
      const trailing = index === characters.length - 1 && c === ' ';
      return leading || trailing ? `\\${c}` : c;
    })
    .join('');
}
