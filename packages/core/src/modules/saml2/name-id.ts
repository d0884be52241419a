import type { AttributeMap } from '../../domain/authentication/principal.js';
import type { RandomSource } from '../../ports/random-source.js';
import { persistentId } from '../../service-policies/username-providers.js';
import { isSupportedNameIdFormat, NAME_ID_FORMAT, STATUS, type NameIdFormat } from './saml-names.js';
import { SamlRequestRefusedError, type NameIdPolicy } from './saml-requests.js';
import type { SamlServiceProvider } from './service-provider.js';

/**
 * The NameID format an SP gets: its definition's `requiredNameIdFormat` whatever it asks (a request
 * for another format is refused); else the format its request's NameIDPolicy asks for; else the first
 * format its metadata lists that tessera issues; else unspecified. A format tessera does not issue is
 * refused with InvalidNameIDPolicy.
 */
export function chooseNameIdFormat(sp: SamlServiceProvider, requested: NameIdPolicy | undefined): NameIdFormat {
  const asked = requested?.format !== undefined && requested.format !== NAME_ID_FORMAT.unspecified ? requested.format : undefined;
  const required = sp.policy.requiredNameIdFormat;
  if (required !== undefined) {
    if (!isSupportedNameIdFormat(required)) throw refusal(`The SP's definition requires NameID format ${required}, which tessera does not issue`);
    if (asked !== undefined && asked !== required) throw refusal(`The request asks for NameID format ${asked}; this SP gets ${required} only`);
    return required;
  }
  if (asked !== undefined) {
    if (!isSupportedNameIdFormat(asked)) throw refusal(`The request asks for NameID format ${asked}, which tessera does not issue`);
    return asked;
  }
  return sp.metadata.nameIdFormats.find(isSupportedNameIdFormat) ?? NAME_ID_FORMAT.unspecified;
}

/** Who the user is to the SP, as the relying-party path released it. */
export interface ReleasedUser {
  readonly username: string;
  readonly attributes: AttributeMap;
}

export interface NameIdSecrets {
  /** Mixed into every persistent id: the same for every node, kept with the module's keys. */
  readonly persistentIdSalt: string;
  readonly random: RandomSource;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The NameID value of a format: persistent, a pairwise id of the user at this SP (CAS's and
 * Shibboleth's algorithm over the SP's entity id, the released user name and the salt: the same at
 * every node and after every restart, unlike the user's at any other SP); transient, a fresh random
 * id per assertion; email, the released user name when it is an address, else the released `mail`
 * (refused when there is none); unspecified, the released user name.
 */
export function nameIdValue(format: NameIdFormat, user: ReleasedUser, spEntityId: string, secrets: NameIdSecrets): string {
  switch (format) {
    case NAME_ID_FORMAT.persistent:
      return persistentId(user.username, spEntityId, secrets.persistentIdSalt);
    case NAME_ID_FORMAT.transient:
      return `_${Buffer.from(secrets.random.bytes(20)).toString('hex')}`;
    case NAME_ID_FORMAT.email: {
      const address = EMAIL.test(user.username) ? user.username : [...(user.attributes['mail'] ?? []), ...(user.attributes['email'] ?? [])].find((value) => EMAIL.test(value));
      if (address === undefined) throw refusal('The SP asks for an email address NameID, and no address of the user is released to it');
      return address;
    }
    default:
      return user.username;
  }
}

function refusal(reason: string): SamlRequestRefusedError {
  return new SamlRequestRefusedError(reason, STATUS.requester, STATUS.invalidNameIdPolicy);
}
