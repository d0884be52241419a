import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/';
const SAMLP = 'urn:oasis:names:tc:SAML:1.0:protocol';

/** The SOAP 1.1 request phpCAS sends (SAML_VERSION_1_1), byte for byte apart from the ticket. */
export function soapRequest(ticket: string): string {
  return (
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP}"><SOAP-ENV:Header/><SOAP-ENV:Body>` +
    `<samlp:Request xmlns:samlp="${SAMLP}"  MajorVersion="1" MinorVersion="1" RequestID="_192.168.16.51.1024506224022" IssueInstant="2002-06-19T17:03:44.022Z">` +
    `<samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

export type Node = Record<string, unknown>;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true, isArray: (name) => ['Attribute', 'AttributeValue'].includes(name) });

export function samlResponse(xml: string): Node {
  expect(XMLValidator.validate(xml), xml).to.equal(true);
  const document = parser.parse(xml) as { Envelope: { Body: { Response: Node } } };
  return document.Envelope.Body.Response;
}
