import type { LogoutRequestMessage, LogoutResponseMessage } from '@tessera/core/modules/saml2';
import { XmlBuilder } from './xml-builder.js';
import { NS, serialize, writeInstant } from './xml.js';

/**
 * A samlp:LogoutRequest (SAML Core §3.7.1), unsigned: over HTTP-Redirect its signature goes in the
 * query (redirectUrl), over HTTP-POST it is signed enveloped (signEnveloped) by the sender.
 */
export function logoutRequestXml(message: Omit<LogoutRequestMessage, 'issueInstant' | 'notOnOrAfter'> & { readonly issueInstant: number; readonly notOnOrAfter?: number }): string {
  const xml = new XmlBuilder(NS.samlp, 'LogoutRequest');
  xml.declare(xml.root, NS.saml);
  const { nameId } = message;
  xml.fill(
    xml.root,
    {
      ID: message.id,
      Version: '2.0',
      IssueInstant: writeInstant(message.issueInstant),
      Destination: message.destination,
      NotOnOrAfter: message.notOnOrAfter === undefined ? undefined : writeInstant(message.notOnOrAfter),
    },
    [
      xml.element(NS.saml, 'Issuer', {}, [message.issuer]),
      xml.element(NS.saml, 'NameID', { Format: nameId.format, NameQualifier: nameId.nameQualifier, SPNameQualifier: nameId.spNameQualifier }, [nameId.value]),
      ...message.sessionIndexes.map((index) => xml.element(NS.samlp, 'SessionIndex', {}, [index])),
    ],
  );
  return serialize(xml.document);
}

/** A samlp:LogoutResponse (SAML Core §3.7.2), unsigned as logoutRequestXml. */
export function logoutResponseXml(message: LogoutResponseMessage & { readonly statusMessage?: string }): string {
  const xml = new XmlBuilder(NS.samlp, 'LogoutResponse');
  xml.declare(xml.root, NS.saml);
  const subStatus = message.subStatus === undefined ? undefined : xml.element(NS.samlp, 'StatusCode', { Value: message.subStatus });
  xml.fill(xml.root, { ID: message.id, Version: '2.0', IssueInstant: writeInstant(message.issueInstant), Destination: message.destination, InResponseTo: message.inResponseTo }, [
    xml.element(NS.saml, 'Issuer', {}, [message.issuer]),
    xml.element(NS.samlp, 'Status', {}, [
      xml.element(NS.samlp, 'StatusCode', { Value: message.status }, [subStatus]),
      message.statusMessage !== undefined && xml.element(NS.samlp, 'StatusMessage', {}, [message.statusMessage]),
    ]),
  ]);
  return serialize(xml.document);
}
