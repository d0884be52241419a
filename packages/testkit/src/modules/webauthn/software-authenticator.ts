import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/** What a ceremony's options give the authenticator (as `@simplewebauthn/server` makes them, in JSON). */
export interface CeremonyOptions {
  readonly challenge: string;
  readonly rpId?: string;
  readonly rp?: { readonly id?: string };
  readonly user?: { readonly id: string };
}

/** What the authenticator may be told to do wrong, or differently, for one answer. */
export interface AnswerOptions {
  /** The origin the browser reports (the page's). */
  readonly origin: string;
  /** The RP id the authenticator signs for; the options' by default. */
  readonly rpId?: string;
  /** The challenge it signs; the options' by default. */
  readonly challenge?: string;
  /** Whether the user was verified (a PIN, a fingerprint); true by default. */
  readonly userVerified?: boolean;
  /** The counter it reports; its own, moved on by one, by default. */
  readonly counter?: number;
  /** `webauthn.get` or `webauthn.create`, as the ceremony; another to test the check. */
  readonly type?: string;
}

/**
 * An authenticator in software for tests, as a browser would relay it: one ES256 key pair per credential,
 * resident (it answers with the user handle it was made for), packed as `@simplewebauthn/browser` posts
 * its answers (RegistrationResponseJSON, AuthenticationResponseJSON), attestation `none`.
 */
export class SoftwareAuthenticator {
  private readonly credentials = new Map<string, { readonly privateKey: KeyObject; readonly publicKey: KeyObject; readonly userHandle: string; counter: number }>();

  constructor(
    /** Counts each assertion (a security key does); false: always 0, as many platform passkeys. */
    private readonly counts = true,
  ) {}

  /** The credential ids it holds, in the order they were made. */
  get credentialIds(): string[] {
    return [...this.credentials.keys()];
  }

  /** Makes a credential answering registration `options` (navigator.credentials.create). */
  register(options: CeremonyOptions, answer: AnswerOptions): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(32);
    const id = credentialId.toString('base64url');
    this.credentials.set(id, { privateKey, publicKey, userHandle: options.user?.id ?? '', counter: 0 });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, CBORType>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const attested = Buffer.concat([Buffer.alloc(16), u16(credentialId.length), credentialId, Buffer.from(encodeCBOR(cose))]);
    const authData = authenticatorData(answer.rpId ?? options.rp?.id ?? '', answer, 0, attested);
    const attestationObject = Buffer.from(encodeCBOR(new Map<string, CBORType>([['fmt', 'none'], ['attStmt', new Map<string, CBORType>()], ['authData', authData]])));
    const clientDataJSON = clientData(answer.type ?? 'webauthn.create', answer.challenge ?? options.challenge, answer.origin);
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: clientDataJSON.toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] },
    };
  }

  /** Answers authentication `options` (navigator.credentials.get) with the credential `credentialId` (its first by default). */
  assert(options: CeremonyOptions, answer: AnswerOptions, credentialId = this.credentialIds[0]): Record<string, unknown> {
    const credential = credentialId === undefined ? undefined : this.credentials.get(credentialId);
    if (credential === undefined || credentialId === undefined) throw new Error('the authenticator holds no such credential');
    if (this.counts) credential.counter += 1;
    const authData = authenticatorData(answer.rpId ?? options.rpId ?? '', answer, answer.counter ?? credential.counter);
    const clientDataJSON = clientData(answer.type ?? 'webauthn.get', answer.challenge ?? options.challenge, answer.origin);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), credential.privateKey);
    return {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
    };
  }
}

function authenticatorData(rpId: string, answer: AnswerOptions, counter: number, attested?: Buffer): Buffer {
  // UP always; UV unless told otherwise; AT with attested credential data.
  const flags = 0x01 | (answer.userVerified === false ? 0 : 0x04) | (attested === undefined ? 0 : 0x40);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), count, ...(attested === undefined ? [] : [attested])]);
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}
