import {
  assertionConsumerService,
  BINDING,
  checkDestination,
  checkIssueInstant,
  SamlRequestRefusedError,
  STATUS,
  type AuthnRequestMessage,
  type LogoutRequestMessage,
  type LogoutResponseMessage,
  singleLogoutService,
  type SamlBinding,
  type SamlKey,
  type SamlRequestIdStore,
  type SamlServiceProvider,
  type SamlStatusCode,
  type SamlLogoutFailure,
  type SignatureAlgorithm,
  type SpEndpoint,
} from '@tessera/core/modules/saml2';
import { decryptNameId, UndecryptableIdError } from './encrypted-id.js';
import { MetadataError } from './metadata.js';
import { readRedirectQuery, RedirectMessageError, verifyRedirectSignature, type MessageParameter } from './redirect-binding.js';
import { claimedIssuer, readAuthnRequest, readLogoutRequest, readLogoutResponse } from './saml-messages.js';
import { envelopedSignatureOf, SignatureRefusedError, verifyEnvelopedSignature } from './xml-signature.js';
import { attribute, NS, optionalChild, parseXml, UnreadableXmlError } from './xml.js';

/** A message as it reached an endpoint: the raw query of a Redirect, or the fields of a POST form. */
export type InboundMessage =
  | { readonly binding: typeof BINDING.redirect; readonly rawQuery: string }
  | { readonly binding: typeof BINDING.post; readonly form: Readonly<Record<string, string | undefined>> };

export interface InboundSettings {
  /** The largest message accepted, in bytes of XML (inflated, or decoded from base64). */
  readonly maxMessageBytes: number;
  /** The algorithms an SP's signature may use. */
  readonly signatureAlgorithms: readonly SignatureAlgorithm[];
  /** Seconds of clock difference allowed, unless the SP's definition says. */
  readonly skewSeconds: number;
  /** How old a request may be (IssueInstant), beyond the skew. */
  readonly maxAgeSeconds: number;
}

export interface InboundDependencies {
  /** The SP of an entity id, if it is registered (its metadata resolved). */
  readonly serviceProvider: (entityId: string) => Promise<SamlServiceProvider | undefined>;
  readonly requestIds: SamlRequestIdStore;
  readonly now: () => number;
}

/**
 * A refused message. `answer` is set when the SP may be told so in a SAML Response: the SP is known,
 * its message passed the checks of authenticity its metadata asks for, and the address to answer at
 * is one its metadata lists. Without it, only the browser is told (an error page): tessera never
 * sends anything to an address an unauthenticated message named.
 */
export class InboundRefusal extends SamlRequestRefusedError {
  constructor(
    reason: string,
    status: SamlStatusCode = STATUS.requester,
    subStatus?: SamlStatusCode,
    readonly answer?: { readonly sp: SamlServiceProvider; readonly endpoint: SpEndpoint; readonly requestId: string; readonly relayState?: string },
  ) {
    super(reason, status, subStatus);
  }
}

export interface LogoutRequestDependencies extends InboundDependencies {
  /** The IdP's encryption keys, an EncryptedID is decrypted with (every one the metadata publishes). */
  readonly encryptionKeys: () => Promise<readonly SamlKey[]>;
}

/** A request read and checked, with what it came with. */
export interface Received<Message> {
  readonly sp: SamlServiceProvider;
  readonly message: Message;
  readonly binding: SamlBinding;
  readonly relayState?: string;
  /** The message was signed, and the signature verified with the SP's metadata. */
  readonly signed: boolean;
}

interface Authenticated {
  readonly sp: SamlServiceProvider;
  readonly element: Element;
  readonly relayState?: string;
  readonly signed: boolean;
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * The message of a binding, parsed, its issuer registered (and its metadata to be had), and its
 * signature, if any, verified with that SP's metadata: over the query string for HTTP-Redirect (where the XML must carry none), enveloped
 * for HTTP-POST, read then from what the signature covers only. Every failure is a refusal naming why.
 */
async function authenticate(inbound: InboundMessage, parameter: MessageParameter, settings: InboundSettings, deps: Pick<InboundDependencies, 'serviceProvider'>): Promise<Authenticated> {
  try {
    if (inbound.binding === BINDING.redirect) {
      // Base64 of DEFLATE, in a URL: at most 4/3 of the deflated size, which is at most the inflated one (with a margin for escaping).
      const query = readRedirectQuery(inbound.rawQuery, parameter, { maxEncodedLength: settings.maxMessageBytes * 2, maxInflatedBytes: settings.maxMessageBytes });
      const document = parseXml(query.xml, settings.maxMessageBytes);
      const sp = await knownSp(claimedIssuer(document.documentElement), deps);
      if (envelopedSignatureOf(document) !== undefined) throw new SignatureRefusedError('A message over HTTP-Redirect carries its signature in the query, never in the XML');
      if (query.signature !== undefined) verifyRedirectSignature(query.signature, sp.metadata.signingCertificates, settings.signatureAlgorithms);
      return { sp, element: document.documentElement, signed: query.signature !== undefined, ...(query.relayState !== undefined && { relayState: query.relayState }) };
    }
    const encoded = inbound.form[parameter];
    if (encoded === undefined || encoded === '') throw new RedirectMessageError(`The form holds no ${parameter}`);
    if (encoded.length > settings.maxMessageBytes * 2 || !BASE64.test(encoded)) throw new RedirectMessageError(`${parameter} is not base64 of at most ${settings.maxMessageBytes} bytes`);
    const xml = Buffer.from(encoded, 'base64').toString('utf8');
    const document = parseXml(xml, settings.maxMessageBytes);
    const sp = await knownSp(claimedIssuer(document.documentElement), deps);
    const signature = envelopedSignatureOf(document);
    const element = signature === undefined ? document.documentElement : verifyEnvelopedSignature(xml, document, signature, sp.metadata.signingCertificates, settings.signatureAlgorithms, settings.maxMessageBytes);
    const relayState = inbound.form['RelayState'];
    return { sp, element, signed: signature !== undefined, ...(relayState !== undefined && { relayState }) };
  } catch (error) {
    if (error instanceof SignatureRefusedError) throw new InboundSignatureRefusal(error.reason);
    if (error instanceof UnreadableXmlError || error instanceof RedirectMessageError || error instanceof MetadataError) throw new InboundRefusal(error.reason);
    throw error;
  }
}

/** A refusal because of the message's signature: in any shape but SAML's, or not by a key of the SP's metadata. */
export class InboundSignatureRefusal extends InboundRefusal {}

async function knownSp(entityId: string, deps: Pick<InboundDependencies, 'serviceProvider'>): Promise<SamlServiceProvider> {
  const sp = await deps.serviceProvider(entityId);
  if (sp === undefined) throw new InboundRefusal(`No service provider is registered as ${entityId}`, STATUS.requester, STATUS.requestDenied);
  return sp;
}

function read<Message>(reader: (element: Element) => Message, element: Element): Message {
  try {
    return reader(element);
  } catch (error) {
    if (error instanceof UnreadableXmlError) throw new InboundRefusal(error.reason);
    throw error;
  }
}

/**
 * An AuthnRequest (SAML Core §3.4.1) received at `endpoint` over a binding: authenticated as above,
 * signed if the SP's metadata says its requests are (AuthnRequestsSigned), answered only at an
 * AssertionConsumerService of the SP's metadata, addressed to this endpoint (Destination), issued
 * within the allowed time (IssueInstant, the SP's skewAllowance or the setting), and never accepted
 * twice (its ID, claimed last, so a refused request leaves nothing stored).
 */
export async function receiveAuthnRequest(inbound: InboundMessage, endpoint: string, answered: readonly SamlBinding[], settings: InboundSettings, deps: InboundDependencies): Promise<Received<AuthnRequestMessage> & { readonly assertionConsumerService: SpEndpoint }> {
  const { sp, element, relayState, signed } = await authenticate(inbound, 'SAMLRequest', settings, deps);
  const message = read(readAuthnRequest, element);
  if (message.issuer !== sp.metadata.entityId) throw new InboundRefusal('The signed Issuer is not the one the message claimed');
  if (!signed && sp.metadata.authnRequestsSigned) throw new InboundRefusal(`The metadata of ${sp.metadata.entityId} says its AuthnRequests are signed, and this one is not`, STATUS.requester, STATUS.requestDenied);
  const url = message.assertionConsumerServiceUrl;
  const index = message.assertionConsumerServiceIndex;
  const acs = assertionConsumerService(sp.metadata, { ...(url !== undefined && { url }), ...(index !== undefined && { index }), ...(message.protocolBinding !== undefined && { binding: message.protocolBinding }) }, answered);
  if (acs === undefined) {
    const named = url !== undefined ? `AssertionConsumerServiceURL ${url}` : index !== undefined ? `AssertionConsumerServiceIndex ${index}` : 'a default AssertionConsumerService';
    throw new InboundRefusal(`The metadata of ${sp.metadata.entityId} lists no ${named}${message.protocolBinding === undefined ? '' : ` for ${message.protocolBinding}`} that tessera answers over`);
  }
  const answer = { sp, endpoint: acs, requestId: message.id, ...(relayState !== undefined && { relayState }) };
  await checkTimelyAndNew(message, endpoint, signed, sp, settings, deps, answer);
  return { sp, message, binding: inbound.binding, signed, assertionConsumerService: acs, ...(relayState !== undefined && { relayState }) };
}

/**
 * A LogoutRequest from an SP (SAML Core §3.7.1), with the same checks of authenticity, address, time
 * and replay. An EncryptedID is decrypted with the IdP's encryption keys once the signature is verified;
 * one that does not decrypt is answered to the SP (Requester, UnknownPrincipal) and changes nothing.
 */
export async function receiveLogoutRequest(inbound: InboundMessage, endpoint: string, settings: InboundSettings, deps: LogoutRequestDependencies): Promise<Received<LogoutRequestMessage>> {
  const { sp, element, relayState, signed } = await authenticate(inbound, 'SAMLRequest', settings, deps);
  // SAML Profiles §4.4.4.1: a LogoutRequest MUST be signed (or authenticated by the binding, as tessera's front channel cannot).
  if (!signed) throw new InboundRefusal(`The LogoutRequest of ${sp.metadata.entityId} is not signed`, STATUS.requester, STATUS.requestDenied);
  const encryptedId = optionalChild(element, NS.saml, 'EncryptedID');
  let decryptedNameId: Element | undefined;
  if (encryptedId !== undefined) {
    try {
      decryptedNameId = await decryptNameId(encryptedId, await deps.encryptionKeys(), settings.maxMessageBytes);
    } catch (error) {
      if (!(error instanceof UndecryptableIdError)) throw error;
      const requestId = attribute(element, 'ID');
      const sloEndpoint = singleLogoutService(sp.metadata, [BINDING.redirect, BINDING.post]);
      const answer = requestId === undefined || sloEndpoint === undefined ? undefined : { sp, endpoint: sloEndpoint, requestId, ...(relayState !== undefined && { relayState }) };
      throw new InboundRefusal(error.reason, STATUS.requester, STATUS.unknownPrincipal, answer);
    }
  }
  const message = read((request) => readLogoutRequest(request, decryptedNameId), element);
  if (message.issuer !== sp.metadata.entityId) throw new InboundRefusal('The signed Issuer is not the one the message claimed');
  if (message.notOnOrAfter !== undefined && message.notOnOrAfter <= deps.now()) throw new InboundRefusal('The LogoutRequest has expired (NotOnOrAfter)', STATUS.requester, STATUS.requestDenied);
  await checkTimelyAndNew(message, endpoint, signed, sp, settings, deps);
  return { sp, message, binding: inbound.binding, signed, ...(relayState !== undefined && { relayState }) };
}

/** Why an SP's answer to a back-channel LogoutRequest does not confirm the logout; `detail` never holds the NameID. */
export class LogoutAnswerRefusal extends Error {
  constructor(
    readonly failure: SamlLogoutFailure,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'LogoutAnswerRefusal';
  }
}

/**
 * The LogoutResponse an SP answered a back-channel LogoutRequest with (`requestId`), reaching tessera's
 * SingleLogoutService `endpoint` of its binding: the expected SP's, authenticated as above, signed
 * when the SP's metadata has signing keys (SAML Profiles §4.4.4.2), in response to that request,
 * addressed and timed as a request is, with status Success. Anything else is a LogoutAnswerRefusal
 * naming why.
 */
export async function receiveLogoutAnswer(
  inbound: InboundMessage,
  endpoint: string,
  expected: { readonly sp: SamlServiceProvider; readonly requestId: string },
  settings: InboundSettings,
  deps: Omit<InboundDependencies, 'serviceProvider'>,
): Promise<LogoutResponseMessage> {
  const { sp } = expected;
  const entityId = sp.metadata.entityId;
  try {
    const authenticated = await authenticate(inbound, 'SAMLResponse', settings, { ...deps, serviceProvider: (issuer) => Promise.resolve(issuer === entityId ? sp : undefined) });
    const message = read(readLogoutResponse, authenticated.element);
    if (message.issuer !== entityId) throw new InboundRefusal('The signed Issuer is not the one the message claimed');
    if (!authenticated.signed && sp.metadata.signingCertificates.length > 0) throw new LogoutAnswerRefusal('signature', `The LogoutResponse of ${entityId} is not signed`);
    if (message.inResponseTo !== expected.requestId) throw new LogoutAnswerRefusal('in-response-to', `The LogoutResponse answers ${message.inResponseTo ?? 'no request'}, not ${expected.requestId}`);
    await checkTimelyAndNew(message, endpoint, authenticated.signed, sp, settings, { ...deps, serviceProvider: () => Promise.resolve(sp) });
    if (message.status !== STATUS.success) throw new LogoutAnswerRefusal('status', `The status is ${[message.status, message.subStatus].filter((code) => code !== undefined).join(' / ')}`);
    return message;
  } catch (error) {
    if (error instanceof InboundSignatureRefusal) throw new LogoutAnswerRefusal('signature', error.reason);
    if (error instanceof InboundRefusal) throw new LogoutAnswerRefusal('invalid', error.reason);
    throw error;
  }
}

/**
 * A LogoutResponse a browser brings to a SingleLogoutService when tessera asked nothing in that
 * browser (some SPs answer a back-channel LogoutRequest so): read and checked as any message of its
 * SP (known, signed with a key of its metadata, addressed to this endpoint, issued in time), so the
 * page can say what it said; it answers nothing tessera waits for, so nothing is stored, not even its ID.
 */
export async function receiveUnaskedLogoutResponse(inbound: InboundMessage, endpoint: string, settings: InboundSettings, deps: Omit<InboundDependencies, 'requestIds'>): Promise<Received<LogoutResponseMessage>> {
  const { sp, element, relayState, signed } = await authenticate(inbound, 'SAMLResponse', settings, deps);
  const message = read(readLogoutResponse, element);
  if (message.issuer !== sp.metadata.entityId) throw new InboundRefusal('The signed Issuer is not the one the message claimed');
  if (!signed) throw new InboundRefusal(`The LogoutResponse of ${sp.metadata.entityId} is not signed`, STATUS.requester, STATUS.requestDenied);
  checkTimely(message, endpoint, signed, sp, settings, deps.now());
  return { sp, message, binding: inbound.binding, signed, ...(relayState !== undefined && { relayState }) };
}

function checkTimely(
  message: { readonly issueInstant: number; readonly destination?: string },
  endpoint: string,
  signed: boolean,
  sp: SamlServiceProvider,
  settings: InboundSettings,
  now: number,
  answer?: InboundRefusal['answer'],
): void {
  const skew = sp.policy.skewAllowanceSeconds ?? settings.skewSeconds;
  try {
    checkDestination(message.destination, endpoint, signed);
    checkIssueInstant(message.issueInstant, now, skew, settings.maxAgeSeconds);
  } catch (error) {
    if (error instanceof SamlRequestRefusedError) throw new InboundRefusal(error.reason, error.status, error.subStatus, answer);
    throw error;
  }
}

async function checkTimelyAndNew(
  message: { readonly id: string; readonly issuer: string; readonly issueInstant: number; readonly destination?: string },
  endpoint: string,
  signed: boolean,
  sp: SamlServiceProvider,
  settings: InboundSettings,
  deps: InboundDependencies,
  answer?: InboundRefusal['answer'],
): Promise<void> {
  const skew = sp.policy.skewAllowanceSeconds ?? settings.skewSeconds;
  const now = deps.now();
  checkTimely(message, endpoint, signed, sp, settings, now, answer);
  // Kept while the IssueInstant could still be accepted: a replay after that is refused as too old.
  const acceptedUntil = message.issueInstant + (settings.maxAgeSeconds + skew) * 1000;
  if (!(await deps.requestIds.claim(message.issuer, message.id, Math.max(acceptedUntil, now) + 1000))) {
    throw new InboundRefusal(`The request ${message.id} of ${message.issuer} was received before: a request is accepted once`, STATUS.requester, STATUS.requestDenied, answer);
  }
}
