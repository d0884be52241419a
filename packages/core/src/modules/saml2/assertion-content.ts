import type { RandomSource } from '../../ports/random-source.js';
import type { ReleasedUser } from './name-id.js';
import { ATTRIBUTE_NAME_FORMAT, STATUS, SUBJECT_CONFIRMATION_BEARER, type NameIdFormat, type SamlStatusCode } from './saml-names.js';
import type { AuthnRequestMessage } from './saml-requests.js';
import type { SamlServiceProvider, SpEndpoint } from './service-provider.js';

/** A NameID as an assertion names its subject. */
export interface SubjectNameId {
  readonly value: string;
  readonly format: NameIdFormat;
  readonly nameQualifier?: string;
  readonly spNameQualifier?: string;
}

/** One Attribute of the AttributeStatement. */
export interface AssertionAttribute {
  readonly name: string;
  readonly nameFormat: string;
  readonly friendlyName?: string;
  /** The xsi:type of each value (`xs:string`, …); none for an untyped value. */
  readonly valueType?: string;
  readonly values: readonly string[];
}

/**
 * What a Response with an Assertion says, before it is XML (SAML Core §2, §3.2.2; Profiles §4.1.4.2).
 * Times are epoch ms. The XML adapter writes it as it is.
 */
export interface AssertionContent {
  readonly responseId: string;
  readonly assertionId: string;
  readonly issueInstant: number;
  readonly issuer: string;
  /** The AssertionConsumerService the Response is delivered to (Response Destination, SubjectConfirmationData Recipient). */
  readonly destination: string;
  readonly inResponseTo?: string;
  readonly nameId: SubjectNameId;
  readonly subjectConfirmation: { readonly method: string; readonly recipient: string; readonly notOnOrAfter: number; readonly inResponseTo?: string };
  readonly conditions: { readonly notBefore: number; readonly notOnOrAfter: number; readonly audiences: readonly string[] };
  readonly authnStatement: { readonly authnInstant: number; readonly sessionIndex: string; readonly contextClassRef: string };
  readonly attributes: readonly AssertionAttribute[];
}

/** A Response that carries no assertion: the request was refused (SAML Core §3.2.2.2). */
export interface StatusResponseContent {
  readonly responseId: string;
  readonly issueInstant: number;
  readonly issuer: string;
  readonly destination: string;
  readonly inResponseTo?: string;
  readonly status: SamlStatusCode;
  readonly subStatus?: SamlStatusCode;
  readonly message?: string;
}

export interface AssertionInput {
  /** The IdP's entity id (the SP's `issuerEntityId` wins). */
  readonly idpEntityId: string;
  readonly sp: SamlServiceProvider;
  /** The AuthnRequest answered; none for an unsolicited (IdP-initiated) response. */
  readonly request?: AuthnRequestMessage;
  readonly assertionConsumerService: SpEndpoint;
  readonly user: ReleasedUser;
  readonly nameId: SubjectNameId;
  /** When the user logged in (epoch ms). */
  readonly authenticatedAt: number;
  /** The AuthnStatement's SessionIndex: what a logout names the SP's session by. */
  readonly sessionIndex: string;
  readonly contextClassRef: string;
  readonly now: number;
  /** How long the assertion may be presented: SubjectConfirmationData and Conditions NotOnOrAfter. */
  readonly lifetimeSeconds: number;
  /** How far before now the Conditions' NotBefore lies, for SPs whose clocks run a little behind. */
  readonly skewSeconds: number;
  readonly random: RandomSource;
}

/** A SAML ID (an xs:ID: a letter or `_` first), fresh from the random source. */
export function samlId(random: RandomSource): string {
  return `_${Buffer.from(random.bytes(20)).toString('hex')}`;
}

const VALUE_TYPES: Readonly<Record<string, string | undefined>> = {
  XSString: 'xs:string',
  XSURI: 'xs:anyURI',
  XSBoolean: 'xs:boolean',
  XSInteger: 'xs:integer',
  XSDateTime: 'xs:dateTime',
  XSBase64Binary: 'xs:base64Binary',
  XSObject: undefined,
};

/** Apereo's `attributeValueTypes` values that tessera writes. */
export const ATTRIBUTE_VALUE_TYPES = Object.keys(VALUE_TYPES);

/** An `attributeNameFormats` value as a URI: `basic`, `uri` and `unspecified` are short for SAML's. */
export function attributeNameFormat(format: string | undefined): string {
  if (format === undefined) return ATTRIBUTE_NAME_FORMAT.unspecified;
  return (ATTRIBUTE_NAME_FORMAT as Readonly<Record<string, string>>)[format] ?? format;
}

/**
 * The Response to an AuthnRequest (or an unsolicited one): addressed to the chosen AssertionConsumerService
 * (Destination, Recipient), in response to the request (InResponseTo, in the Response and the
 * SubjectConfirmationData), for the SP and the audiences its definition adds, valid from a little before
 * now (the skew) until the lifetime ends, naming the user by the chosen NameID and carrying the
 * released attributes, each with the name format, friendly name and value type the definition gives.
 */
export function assertionContent(input: AssertionInput): AssertionContent {
  const { sp, request, assertionConsumerService, user, now, random } = input;
  const issuer = sp.policy.issuerEntityId ?? input.idpEntityId;
  const notOnOrAfter = now + input.lifetimeSeconds * 1000;
  const inResponseTo = request?.id;
  const audiences = [sp.metadata.entityId, ...sp.policy.assertionAudiences.filter((audience) => audience !== sp.metadata.entityId)];
  const attributes = Object.entries(user.attributes)
    .filter(([, values]) => values.length > 0)
    .map(([name, values]): AssertionAttribute => {
      const friendlyName = sp.policy.attributeFriendlyNames[name];
      const valueType = VALUE_TYPES[sp.policy.attributeValueTypes[name] ?? 'XSString'];
      return { name, nameFormat: attributeNameFormat(sp.policy.attributeNameFormats[name]), values, ...(friendlyName !== undefined && { friendlyName }), ...(valueType !== undefined && { valueType }) };
    });
  return {
    responseId: samlId(random),
    assertionId: samlId(random),
    issueInstant: now,
    issuer,
    destination: assertionConsumerService.location,
    ...(inResponseTo !== undefined && { inResponseTo }),
    nameId: input.nameId,
    subjectConfirmation: { method: SUBJECT_CONFIRMATION_BEARER, recipient: assertionConsumerService.location, notOnOrAfter, ...(inResponseTo !== undefined && { inResponseTo }) },
    conditions: { notBefore: now - input.skewSeconds * 1000, notOnOrAfter, audiences },
    authnStatement: { authnInstant: input.authenticatedAt, sessionIndex: input.sessionIndex, contextClassRef: input.contextClassRef },
    attributes,
  };
}

/** A refusal's Response to the SP, from the status a SamlRequestRefusedError carries. */
export function statusResponseContent(input: {
  readonly idpEntityId: string;
  readonly sp: SamlServiceProvider;
  /** The request refused (its ID is what the Response answers); none for an unsolicited one. */
  readonly request?: Pick<AuthnRequestMessage, 'id'>;
  readonly destination: string;
  readonly status: SamlStatusCode;
  readonly subStatus?: SamlStatusCode;
  readonly message?: string;
  readonly now: number;
  readonly random: RandomSource;
}): StatusResponseContent {
  const { request, subStatus, message } = input;
  return {
    responseId: samlId(input.random),
    issueInstant: input.now,
    issuer: input.sp.policy.issuerEntityId ?? input.idpEntityId,
    destination: input.destination,
    status: input.status === STATUS.success ? STATUS.responder : input.status,
    ...(request !== undefined && { inResponseTo: request.id }),
    ...(subStatus !== undefined && { subStatus }),
    ...(message !== undefined && { message }),
  };
}
