import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SAML_PROTOCOL = 'urn:oasis:names:tc:SAML:1.0:protocol';
export const SAML_ASSERTION = 'urn:oasis:names:tc:SAML:1.0:assertion';

/** A SOAP 1.1 envelope holding a SAML 1.1 samlp:Request for `artifact`, as phpCAS and python-cas send it. */
export function samlRequest(artifact: string, requestId = '_192.168.16.51.1024506224022'): string {
  return (
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP_ENVELOPE}"><SOAP-ENV:Header/><SOAP-ENV:Body>` +
    `<samlp:Request xmlns:samlp="${SAML_PROTOCOL}" MajorVersion="1" MinorVersion="1" RequestID="${requestId}" IssueInstant="2002-06-19T17:03:44.022Z">` +
    `<samlp:AssertionArtifact>\n  ${artifact}\n</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['saml:Attribute', 'saml:AttributeValue', 'saml:AttributeStatement', 'saml:Assertion'].includes(name),
});

/** Any element of the parsed document: attributes as `@_name`, text as `#text` or the bare string. */
export type XmlNode = Record<string, unknown>;

export interface SamlResponseDocument {
  /** samlp:Response, with its namespace declarations checked. */
  readonly response: XmlNode;
  readonly status: XmlNode;
}

/** Parses a /samlValidate answer, checking it is well-formed and namespaced as SAML 1.1 clients look it up. */
export function parseSamlResponse(xml: string): SamlResponseDocument {
  expect(XMLValidator.validate(xml), xml).to.equal(true);
  const document = parser.parse(xml) as XmlNode;
  const envelope = child(document, 'SOAP-ENV:Envelope');
  expect(envelope['@_xmlns:SOAP-ENV']).to.equal(SOAP_ENVELOPE);
  const response = child(child(envelope, 'SOAP-ENV:Body'), 'samlp:Response');
  expect(response['@_xmlns:samlp']).to.equal(SAML_PROTOCOL);
  expect(response['@_xmlns:saml']).to.equal(SAML_ASSERTION);
  expect(response).to.include({ '@_MajorVersion': '1', '@_MinorVersion': '1' });
  return { response, status: child(response, 'samlp:Status') };
}

export function child(node: XmlNode, name: string): XmlNode {
  const value = node[name];
  expect(value, `<${name}> in ${JSON.stringify(node)}`).to.be.an('object');
  return value as XmlNode;
}

/** Element text whether the parser gave a bare string or an object with `#text`. */
export function text(node: XmlNode, name: string): string {
  const value = node[name];
  return typeof value === 'string' ? value : textOf(value as XmlNode);
}

function textOf(node: XmlNode): string {
  const value = node['#text'];
  return typeof value === 'string' ? value : '';
}

/** Attribute name → values from the assertion's saml:AttributeStatement. */
export function samlAttributes(assertion: XmlNode): Record<string, string[]> {
  const statements = (assertion['saml:AttributeStatement'] ?? []) as XmlNode[];
  const attributes: Record<string, string[]> = {};
  for (const attribute of statements.flatMap((s) => s['saml:Attribute'] as XmlNode[])) {
    expect(attribute['@_AttributeNamespace']).to.be.a('string');
    const values = attribute['saml:AttributeValue'] as (string | XmlNode)[];
    attributes[String(attribute['@_AttributeName'])] = values.map((v) => (typeof v === 'string' ? v : textOf(v)));
  }
  return attributes;
}
