import type { AuthnRequestMessage, LogoutRequestMessage, LogoutResponseMessage, NameIdValue } from '@tessera/core/modules/saml2';
import { attribute, childElements, isElement, NS, optionalChild, readBoolean, readInstant, requiredChild, textOf, UnreadableXmlError } from './xml.js';

/** What every request and status response starts with (SAML Core §3.2.1, §3.2.2): ID, Version 2.0, IssueInstant, Destination, Issuer. */
function commonParts(element: Element): { id: string; issueInstant: number; issuer: string; destination?: string } {
  const id = attribute(element, 'ID');
  if (id === undefined || id === '') throw new UnreadableXmlError(`${element.localName} has no ID`);
  if (attribute(element, 'Version') !== '2.0') throw new UnreadableXmlError(`${element.localName} is not SAML 2.0 (Version="${attribute(element, 'Version') ?? ''}")`);
  const issueInstant = readInstant(attribute(element, 'IssueInstant'), 'IssueInstant');
  const issuerElement = requiredChild(element, NS.saml, 'Issuer');
  const format = attribute(issuerElement, 'Format');
  if (format !== undefined && format !== 'urn:oasis:names:tc:SAML:2.0:nameid-format:entity') throw new UnreadableXmlError('The Issuer is not an entity id');
  const issuer = textOf(issuerElement);
  if (issuer === '') throw new UnreadableXmlError('The Issuer is empty');
  const destination = attribute(element, 'Destination');
  return { id, issueInstant, issuer, ...(destination !== undefined && { destination }) };
}

/** The Issuer a message names, read before its signature is checked: only to find whose keys check it. */
export function claimedIssuer(element: Element): string {
  const issuer = optionalChild(element, NS.saml, 'Issuer');
  const text = issuer === undefined ? '' : textOf(issuer);
  if (text === '') throw new UnreadableXmlError(`${element.localName} names no Issuer`);
  return text;
}

/** Reads a samlp:AuthnRequest (SAML Core §3.4.1). */
export function readAuthnRequest(element: Element): AuthnRequestMessage {
  if (!isElement(element, NS.samlp, 'AuthnRequest')) throw new UnreadableXmlError(`Expected an AuthnRequest, got ${element.localName}`);
  const common = commonParts(element);
  const url = attribute(element, 'AssertionConsumerServiceURL');
  const indexText = attribute(element, 'AssertionConsumerServiceIndex');
  if (indexText !== undefined && !/^\d{1,5}$/.test(indexText)) throw new UnreadableXmlError('AssertionConsumerServiceIndex is not an index');
  const binding = attribute(element, 'ProtocolBinding');
  const policyElement = optionalChild(element, NS.samlp, 'NameIDPolicy');
  const nameIdPolicy = policyElement && {
    ...optionalAttributes(policyElement, { format: 'Format', spNameQualifier: 'SPNameQualifier' }),
    ...(policyElement.hasAttribute('AllowCreate') && { allowCreate: readBoolean(attribute(policyElement, 'AllowCreate'), 'AllowCreate', false) }),
  };
  const contextElement = optionalChild(element, NS.samlp, 'RequestedAuthnContext');
  const requestedAuthnContext = contextElement && {
    classes: childElements(contextElement, NS.saml, 'AuthnContextClassRef').map(textOf),
    comparison: attribute(contextElement, 'Comparison') ?? 'exact',
  };
  if (requestedAuthnContext && !['exact', 'minimum', 'maximum', 'better'].includes(requestedAuthnContext.comparison)) throw new UnreadableXmlError('RequestedAuthnContext has an unknown Comparison');
  return {
    ...common,
    ...(url !== undefined && { assertionConsumerServiceUrl: url }),
    ...(indexText !== undefined && { assertionConsumerServiceIndex: Number(indexText) }),
    ...(binding !== undefined && { protocolBinding: binding }),
    ...(nameIdPolicy && { nameIdPolicy }),
    forceAuthn: readBoolean(attribute(element, 'ForceAuthn'), 'ForceAuthn', false),
    isPassive: readBoolean(attribute(element, 'IsPassive'), 'IsPassive', false),
    ...(requestedAuthnContext && { requestedAuthnContext }),
  };
}

function optionalAttributes<Names extends Record<string, string>>(element: Element, names: Names): Partial<Record<keyof Names, string>> {
  return Object.fromEntries(Object.entries(names).flatMap(([key, name]) => (element.hasAttribute(name) ? [[key, element.getAttribute(name)!]] : []))) as Partial<Record<keyof Names, string>>;
}

/** Reads a saml:NameID. */
export function readNameId(element: Element): NameIdValue {
  const value = textOf(element);
  if (value === '') throw new UnreadableXmlError('The NameID is empty');
  return { value, ...optionalAttributes(element, { format: 'Format', nameQualifier: 'NameQualifier', spNameQualifier: 'SPNameQualifier' }) };
}

/**
 * Reads a samlp:LogoutRequest (SAML Core §3.7.1). The user is named by its NameID or, when it holds an
 * EncryptedID, by `decryptedNameId`, the NameID the caller decrypted from it.
 */
export function readLogoutRequest(element: Element, decryptedNameId?: Element): LogoutRequestMessage {
  if (!isElement(element, NS.samlp, 'LogoutRequest')) throw new UnreadableXmlError(`Expected a LogoutRequest, got ${element.localName}`);
  const common = commonParts(element);
  const encrypted = optionalChild(element, NS.saml, 'EncryptedID') !== undefined;
  if (encrypted && optionalChild(element, NS.saml, 'NameID') !== undefined) throw new UnreadableXmlError('The LogoutRequest names its user twice (NameID and EncryptedID)');
  const nameIdElement = encrypted ? decryptedNameId : requiredChild(element, NS.saml, 'NameID');
  if (nameIdElement === undefined) throw new UnreadableXmlError('The EncryptedID of the LogoutRequest was not decrypted');
  const nameId = readNameId(nameIdElement);
  const notOnOrAfter = attribute(element, 'NotOnOrAfter');
  return {
    ...common,
    nameId,
    sessionIndexes: childElements(element, NS.samlp, 'SessionIndex').map(textOf),
    ...(notOnOrAfter !== undefined && { notOnOrAfter: readInstant(notOnOrAfter, 'NotOnOrAfter') }),
  };
}

/** Reads a samlp:LogoutResponse (SAML Core §3.7.2). */
export function readLogoutResponse(element: Element): LogoutResponseMessage {
  if (!isElement(element, NS.samlp, 'LogoutResponse')) throw new UnreadableXmlError(`Expected a LogoutResponse, got ${element.localName}`);
  const common = commonParts(element);
  const statusCode = requiredChild(requiredChild(element, NS.samlp, 'Status'), NS.samlp, 'StatusCode');
  const status = attribute(statusCode, 'Value');
  if (status === undefined) throw new UnreadableXmlError('The StatusCode has no Value');
  const subStatus = optionalChild(statusCode, NS.samlp, 'StatusCode');
  const inResponseTo = attribute(element, 'InResponseTo');
  const subValue = subStatus && attribute(subStatus, 'Value');
  return { ...common, status, ...(inResponseTo !== undefined && { inResponseTo }), ...(subValue !== undefined && { subStatus: subValue }) };
}
