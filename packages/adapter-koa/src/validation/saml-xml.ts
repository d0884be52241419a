import type { AttributeMap, CasFailureCode } from '@tessera/core';
import { SAML_PROTOCOL } from './saml-request.js';
import { xmlAttribute, xmlText } from './xml-text.js';

const SAML_ASSERTION = 'urn:oasis:names:tc:SAML:1.0:assertion';
/** Apereo CAS's default AttributeNamespace; SAML 1.1 requires one on every attribute. */
const ATTRIBUTE_NAMESPACE = 'http://www.ja-sig.org/products/cas/';
const CONFIRMATION_ARTIFACT = 'urn:oasis:names:tc:SAML:1.0:cm:artifact';
/** How long an assertion is good for after it is issued, as Apereo CAS's default issueLength. */
const ASSERTION_LIFETIME_MS = 30_000;

/** The envelope around every answer of /samlValidate (Apereo CAS protocol §4, SAML 1.1 SOAP binding). */
export interface SamlResponseHeader {
  readonly responseId: string;
  /** The request's RequestID, when the request could be read. */
  readonly inResponseTo: string | undefined;
  /** Epoch ms. */
  readonly issuedAt: number;
}

export interface SamlAssertion {
  readonly assertionId: string;
  readonly issuer: string;
  /** The service the ticket was validated for: the only audience of the assertion. */
  readonly audience: string;
  readonly user: string;
  readonly attributes: AttributeMap;
  readonly authenticationMethod: string;
  /** Epoch ms. */
  readonly authenticatedAt: number;
}

export function samlSuccessXml(header: SamlResponseHeader, assertion: SamlAssertion): string {
  const issued = instant(header.issuedAt);
  const subject = subjectXml(assertion.user);
  const lines = [
    `<saml:Assertion AssertionID="${xmlAttribute(assertion.assertionId)}" IssueInstant="${issued}" Issuer="${xmlAttribute(assertion.issuer)}" MajorVersion="1" MinorVersion="1">`,
    `<saml:Conditions NotBefore="${issued}" NotOnOrAfter="${instant(header.issuedAt + ASSERTION_LIFETIME_MS)}">`,
    `<saml:AudienceRestrictionCondition><saml:Audience>${xmlText(assertion.audience)}</saml:Audience></saml:AudienceRestrictionCondition>`,
    '</saml:Conditions>',
    `<saml:AuthenticationStatement AuthenticationInstant="${instant(assertion.authenticatedAt)}" AuthenticationMethod="${xmlAttribute(assertion.authenticationMethod)}">`,
    subject,
    '</saml:AuthenticationStatement>',
    ...attributeStatementXml(subject, assertion.attributes),
    '</saml:Assertion>',
  ];
  return envelope(header, ['<samlp:Status><samlp:StatusCode Value="samlp:Success"/></samlp:Status>', ...lines]);
}

/**
 * A refused validation. Ticket problems are the requester's, denied (SAML 1.1 §3.4.3.1: RequestDenied
 * is a second-level code under Requester); a server fault is the responder's.
 */
export function samlFailureXml(header: SamlResponseHeader, code: CasFailureCode, message: string): string {
  const statusCode =
    code === 'INTERNAL_ERROR'
      ? '<samlp:StatusCode Value="samlp:Responder"/>'
      : code === 'INVALID_REQUEST'
        ? '<samlp:StatusCode Value="samlp:Requester"/>'
        : '<samlp:StatusCode Value="samlp:Requester"><samlp:StatusCode Value="samlp:RequestDenied"/></samlp:StatusCode>';
  return envelope(header, [`<samlp:Status>${statusCode}<samlp:StatusMessage>${xmlText(message)}</samlp:StatusMessage></samlp:Status>`]);
}

function envelope(header: SamlResponseHeader, content: readonly string[]): string {
  const inResponseTo = header.inResponseTo === undefined ? '' : ` InResponseTo="${xmlAttribute(header.inResponseTo)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>',
    `<samlp:Response xmlns:samlp="${SAML_PROTOCOL}" xmlns:saml="${SAML_ASSERTION}"${inResponseTo} IssueInstant="${instant(header.issuedAt)}" MajorVersion="1" MinorVersion="1" ResponseID="${xmlAttribute(header.responseId)}">`,
    ...content,
    '</samlp:Response>',
    '</SOAP-ENV:Body></SOAP-ENV:Envelope>',
    '',
  ].join('\n');
}

function subjectXml(user: string): string {
  return (
    `<saml:Subject><saml:NameIdentifier>${xmlText(user)}</saml:NameIdentifier>` +
    `<saml:SubjectConfirmation><saml:ConfirmationMethod>${CONFIRMATION_ARTIFACT}</saml:ConfirmationMethod></saml:SubjectConfirmation></saml:Subject>`
  );
}

/** One Attribute per name, one AttributeValue per value; SAML 1.1 allows no empty statement or attribute. */
function attributeStatementXml(subject: string, attributes: AttributeMap): string[] {
  const released = Object.entries(attributes).filter(([, values]) => values.length > 0);
  if (released.length === 0) return [];
  const elements = released.map(
    ([name, values]) =>
      `<saml:Attribute AttributeName="${xmlAttribute(name)}" AttributeNamespace="${ATTRIBUTE_NAMESPACE}">` +
      values.map((value) => `<saml:AttributeValue>${xmlText(value)}</saml:AttributeValue>`).join('') +
      '</saml:Attribute>',
  );
  return ['<saml:AttributeStatement>', subject, ...elements, '</saml:AttributeStatement>'];
}

/** xsd:dateTime in UTC with milliseconds, as Apereo CAS writes SAML instants. */
function instant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
