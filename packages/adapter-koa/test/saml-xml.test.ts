import { expect } from 'chai';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { samlFailureXml, samlSuccessXml } from '../src/validation/saml-xml.js';

const HEADER = { responseId: '_r', inResponseTo: undefined, issuedAt: Date.UTC(2026, 10, 21, 10) };
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (name) => name === 'saml:AttributeValue',
});

/** What XML 1.0 can carry: the renderer drops the rest. */
function xmlLegal(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

type Node = Record<string, unknown>;
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const text = (value as Node)['#text'];
  return typeof text === 'string' ? text : '';
}

describe('Apereo CAS protocol §4 — SAML 1.1 documents escape everything', () => {
  it('property: any unicode user, attribute name, values and audience give a valid document that reads back exactly', () => {
    // Markup and whitespace characters are drawn often: uniform unicode would almost never hit them.
    const unit = fc.oneof(fc.constantFrom('"', "'", '<', '>', '&', '\t', '\n', '\r', ' ', ']]>', '\u0000'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
    const text = fc.string({ unit, maxLength: 30 });
    fc.assert(
      fc.property(text, text, fc.array(text, { minLength: 1, maxLength: 3 }), text, (user, name, values, audience) => {
        const xml = samlSuccessXml(HEADER, {
          assertionId: '_a',
          issuer: 'cas.example.org',
          audience,
          user,
          attributes: { [name]: values },
          authenticationMethod: 'urn:oasis:names:tc:SAML:1.0:am:password',
          authenticatedAt: HEADER.issuedAt,
        });
        expect(XMLValidator.validate(xml), xml).to.equal(true);
        const envelope = (parser.parse(xml) as Node)['SOAP-ENV:Envelope'] as Node;
        const assertion = ((envelope['SOAP-ENV:Body'] as Node)['samlp:Response'] as Node)['saml:Assertion'] as Node;
        const subject = (assertion['saml:AuthenticationStatement'] as Node)['saml:Subject'] as Node;
        expect(textOf(subject['saml:NameIdentifier'])).to.equal(xmlLegal(user));
        const restriction = (assertion['saml:Conditions'] as Node)['saml:AudienceRestrictionCondition'] as Node;
        expect(textOf(restriction['saml:Audience'])).to.equal(xmlLegal(audience));
        const attribute = (assertion['saml:AttributeStatement'] as Node)['saml:Attribute'] as Node;
        expect(attribute['@_AttributeName']).to.equal(xmlLegal(name));
        expect((attribute['saml:AttributeValue'] as unknown[]).map(textOf)).to.deep.equal(values.map(xmlLegal));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(text, text, (requestId, message) => {
        expect(XMLValidator.validate(samlFailureXml({ ...HEADER, inResponseTo: requestId }, 'INVALID_TICKET', message))).to.equal(true);
      }),
    );
  });
});
