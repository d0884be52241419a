import type { Credential } from '../../domain/authentication/credential.js';
import { isX509Credential } from './credential.js';
import type { AttributeMap, Principal } from '../../domain/authentication/principal.js';
import { AuthenticationFailedError } from '../../domain/errors.js';
import type { CertificateDetails, CertificateValidator } from './certificate-validator.js';
import type { CredentialHandler } from '../../ports/credential-handler.js';

/** What a certificate's principal id is (CAS `principal-type`): SUBJECT_DN, CN, RFC822_EMAIL, SERIAL_NO. */
export const PRINCIPAL_ID_SOURCES = ['subjectDn', 'cn', 'email', 'serialNumber'] as const;
export type PrincipalIdSource = (typeof PRINCIPAL_ID_SOURCES)[number];

const MISSING: Readonly<Record<PrincipalIdSource, string>> = {
  subjectDn: 'Certificate has no subject.',
  cn: 'Certificate subject has no CN.',
  email: 'Certificate names no e-mail address.',
  serialNumber: 'Certificate has no serial number.',
};

/**
 * X.509 client certificates (module `x509`): the validator decides whether the chain proves
 * anything; the principal is then named from the certificate, and its subject fields become the
 * principal's attributes, released like any others.
 */
export class X509CredentialHandler implements CredentialHandler {
  constructor(
    readonly name: string,
    private readonly validator: CertificateValidator,
    private readonly principalId: PrincipalIdSource,
  ) {}

  supports(credential: Credential): boolean {
    return isX509Credential(credential);
  }

  async authenticate(credential: Credential): Promise<Principal> {
    if (!isX509Credential(credential)) throw new AuthenticationFailedError(['Not an X.509 certificate.']);
    const details = await this.validator.validate(credential.chain);
    const id = principalIdOf(details, this.principalId);
    if (id === undefined || id === '') throw new AuthenticationFailedError([MISSING[this.principalId]]);
    return { id, attributes: certificateAttributes(details) };
  }
}

/** The first (most specific) CN; the first e-mail address, the subject alternative name's before the subject's. */
function principalIdOf(details: CertificateDetails, source: PrincipalIdSource): string | undefined {
  switch (source) {
    case 'subjectDn':
      return details.subjectDn;
    case 'cn':
      return details.subjectFields.find((field) => field.name === 'cn')?.value;
    case 'email':
      return details.emails[0];
    case 'serialNumber':
      return details.serialNumber;
  }
}

/** Subject fields by LDAP name (`cn`, `ou`, ...), every e-mail address as `mail`, and the DNs and serial number. */
function certificateAttributes(details: CertificateDetails): AttributeMap {
  const attributes: Record<string, string[]> = {};
  const add = (name: string, value: string) => {
    const values = (attributes[name] ??= []);
    if (!values.includes(value)) values.push(value);
  };
  for (const { name, value } of details.subjectFields) if (name !== 'mail') add(name, value);
  for (const email of details.emails) add('mail', email);
  add('subjectDn', details.subjectDn);
  add('issuerDn', details.issuerDn);
  add('certificateSerialNumber', details.serialNumber);
  return attributes;
}
