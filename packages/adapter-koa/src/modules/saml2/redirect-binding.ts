import { createPublicKey, createSign, createVerify } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SIGNATURE_ALGORITHM, type SignatureAlgorithm } from '@tessera/core/modules/saml2';
import { SignatureRefusedError, signingKeyOf, type SigningCredential } from './xml-signature.js';

/** A message over HTTP-Redirect that tessera will not read: `reason` is safe to show. */
export class RedirectMessageError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RedirectMessageError';
  }
}

/** The parameter a message travels in. */
export type MessageParameter = 'SAMLRequest' | 'SAMLResponse';

/** The parts of an HTTP-Redirect query, exactly as they arrived (SAML Bindings §3.4.4.1). */
export interface RedirectQuery {
  readonly parameter: MessageParameter;
  /** The XML of the message, inflated. */
  readonly xml: string;
  readonly relayState?: string;
  /** Present when the query is signed: what was signed, as received, and the signature. */
  readonly signature?: { readonly algorithm: string; readonly signedBytes: string; readonly value: Buffer };
}

export interface RedirectLimits {
  /** The longest encoded message accepted, in characters of the query. */
  readonly maxEncodedLength: number;
  /** The largest inflated message accepted, in bytes. */
  readonly maxInflatedBytes: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Reads an HTTP-Redirect message from the raw query string (`?` excluded): the message parameter,
 * base64 then DEFLATE (only raw DEFLATE, SAML Bindings §3.4.4.1: anything else, or more than
 * `maxInflatedBytes` once inflated, is refused before it is parsed), the RelayState, and the signature
 * parameters with the bytes they sign, taken from the query as it arrived, since re-encoding may
 * differ from the SP's. A parameter given twice is refused: which one counts would be a guess.
 */
export function readRedirectQuery(rawQuery: string, parameter: MessageParameter, limits: RedirectLimits): RedirectQuery {
  const raw = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decodeComponent(at < 0 ? pair : pair.slice(0, at));
    if (raw.has(name)) throw new RedirectMessageError(`The query holds ${name} more than once`);
    raw.set(name, at < 0 ? '' : pair.slice(at + 1));
  }
  const encoded = raw.get(parameter);
  if (encoded === undefined || encoded === '') throw new RedirectMessageError(`The query holds no ${parameter}`);
  if (encoded.length > limits.maxEncodedLength) throw new RedirectMessageError(`${parameter} is longer than ${limits.maxEncodedLength} characters`);
  const base64 = decodeComponent(encoded);
  if (!BASE64.test(base64)) throw new RedirectMessageError(`${parameter} is not base64`);
  const xml = inflate(Buffer.from(base64, 'base64'), limits.maxInflatedBytes, parameter);

  const relayStateRaw = raw.get('RelayState');
  const relayState = relayStateRaw === undefined ? undefined : decodeComponent(relayStateRaw);
  const algorithmRaw = raw.get('SigAlg');
  const signatureRaw = raw.get('Signature');
  if ((algorithmRaw === undefined) !== (signatureRaw === undefined)) throw new RedirectMessageError('The query has one of SigAlg and Signature without the other');
  if (algorithmRaw === undefined || signatureRaw === undefined) return { parameter, xml, ...(relayState !== undefined && { relayState }) };
  const signatureBase64 = decodeComponent(signatureRaw);
  if (!BASE64.test(signatureBase64)) throw new RedirectMessageError('Signature is not base64');
  // SAML Bindings §3.4.4.1: the parameters in this order, each as it was URL-encoded in the query.
  const signedBytes = [`${parameter}=${encoded}`, ...(relayStateRaw === undefined ? [] : [`RelayState=${relayStateRaw}`]), `SigAlg=${algorithmRaw}`].join('&');
  return {
    parameter,
    xml,
    ...(relayState !== undefined && { relayState }),
    signature: { algorithm: decodeComponent(algorithmRaw), signedBytes, value: Buffer.from(signatureBase64, 'base64') },
  };
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new RedirectMessageError('The query is not URL-encoded');
  }
}

function inflate(deflated: Buffer, maxBytes: number, parameter: MessageParameter): string {
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(deflated, { maxOutputLength: maxBytes });
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new RedirectMessageError(`${parameter} inflates to more than ${maxBytes} bytes`);
    }
    throw new RedirectMessageError(`${parameter} is not DEFLATE-compressed, as the HTTP-Redirect binding requires`);
  }
  const xml = inflated.toString('utf8');
  if (!Buffer.from(xml, 'utf8').equals(inflated)) throw new RedirectMessageError(`${parameter} is not UTF-8`);
  return xml;
}

const NODE_ALGORITHMS: Readonly<Record<SignatureAlgorithm, string>> = {
  [SIGNATURE_ALGORITHM.rsaSha256]: 'RSA-SHA256',
  [SIGNATURE_ALGORITHM.rsaSha512]: 'RSA-SHA512',
};

/**
 * Verifies a Redirect query's signature against the peer's certificates from its metadata, with an
 * allowed algorithm only: returns when one of them verifies it, refuses (SignatureRefusedError) otherwise.
 */
export function verifyRedirectSignature(signature: NonNullable<RedirectQuery['signature']>, certificates: readonly string[], algorithms: readonly SignatureAlgorithm[]): void {
  const algorithm = signature.algorithm;
  if (!(algorithms as readonly string[]).includes(algorithm)) throw new SignatureRefusedError(`The signature algorithm ${algorithm} is not allowed (allowed: ${algorithms.join(', ')})`);
  if (certificates.length === 0) throw new SignatureRefusedError('The peer has no signing certificate in its metadata');
  const nodeAlgorithm = NODE_ALGORITHMS[algorithm as SignatureAlgorithm];
  for (const certificate of certificates) {
    const verifier = createVerify(nodeAlgorithm);
    verifier.update(signature.signedBytes, 'utf8');
    if (verifier.verify(createPublicKey(certificate), signature.value)) return;
  }
  throw new SignatureRefusedError("The signature does not verify with the peer's certificates");
}


/**
 * An HTTP-Redirect URL for a message tessera sends: `location` with the message deflated and
 * base64-encoded, the RelayState, and when `signing` is given the SigAlg and the Signature over them.
 */
export function redirectUrl(location: string, parameter: MessageParameter, xml: string, relayState: string | undefined, signing?: { readonly credential: SigningCredential; readonly algorithm: SignatureAlgorithm }): string {
  const parts = [`${parameter}=${encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}`];
  if (relayState !== undefined) parts.push(`RelayState=${encodeURIComponent(relayState)}`);
  if (signing !== undefined) {
    parts.push(`SigAlg=${encodeURIComponent(signing.algorithm)}`);
    const signer = createSign(NODE_ALGORITHMS[signing.algorithm]);
    signer.update(parts.join('&'), 'utf8');
    parts.push(`Signature=${encodeURIComponent(signer.sign(signingKeyOf(signing.credential)).toString('base64'))}`);
  }
  return `${location}${location.includes('?') ? '&' : '?'}${parts.join('&')}`;
}
