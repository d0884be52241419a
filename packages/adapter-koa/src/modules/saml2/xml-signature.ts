import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { SIGNATURE_ALGORITHM, type SignatureAlgorithm } from '@tessera/core/modules/saml2';
import { attribute, childElements, NS, parseXml, requiredChild, UnreadableXmlError } from './xml.js';

const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const INCLUSIVE_C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';

/** The canonicalizations and transforms a signature from a peer may use: no comments kept, no XPath or XSLT. */
const ALLOWED_TRANSFORMS: readonly string[] = [ENVELOPED, EXCLUSIVE_C14N, INCLUSIVE_C14N];
const ALLOWED_CANONICALIZATIONS: readonly string[] = [EXCLUSIVE_C14N, INCLUSIVE_C14N];
const DIGEST = { sha256: 'http://www.w3.org/2001/04/xmlenc#sha256', sha512: 'http://www.w3.org/2001/04/xmlenc#sha512' } as const;
const ALLOWED_DIGESTS: readonly string[] = Object.values(DIGEST);

/** A signature that does not hold: `reason` says which check failed, safe to show. */
export class SignatureRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SignatureRefusedError';
  }
}

/** The one ds:Signature of a document, if any; a second one anywhere is refused (no message of a peer needs two). */
export function envelopedSignatureOf(document: Document): Element | undefined {
  const signatures = document.getElementsByTagNameNS(NS.ds, 'Signature');
  if (signatures.length === 0) return undefined;
  if (signatures.length > 1) throw new SignatureRefusedError('The message holds more than one Signature');
  return signatures.item(0)!;
}

/**
 * Verifies the enveloped signature of a peer's message or metadata, and returns its root element
 * as the signature covers it: parsed anew from the canonical bytes xml-crypto verified
 * (`getSignedReferences`), never from the document the signature arrived in. So whatever an attacker
 * wraps around or beside a signed element (the XML signature wrapping attacks) is not what tessera
 * reads. Before any key is tried, the signature must have the only shape SAML signs messages with
 * (SAML Core §5.4): a child of the root, one Reference, to the root's ID, which no other element
 * carries, transformed by enveloped-signature and exclusive (or inclusive) canonicalization only,
 * with a digest and a signature algorithm of the allowed ones. The certificates are the peer's from
 * its metadata, tried in turn; the signature's own KeyInfo is never trusted.
 */
export function verifyEnvelopedSignature(
  xml: string,
  document: Document,
  signature: Element,
  certificates: readonly string[],
  algorithms: readonly SignatureAlgorithm[],
  maxBytes: number,
): Element {
  const root = document.documentElement;
  if (signature.parentNode !== root) throw new SignatureRefusedError('The Signature is not a child of the message it signs');
  const id = attribute(root, 'ID');
  if (id === undefined || id === '') throw new SignatureRefusedError('The signed message has no ID');
  const holders = elementsWithId(document, id);
  if (holders.length !== 1) throw new SignatureRefusedError('More than one element carries the signed ID');

  const signedInfo = requiredChild(signature, NS.ds, 'SignedInfo');
  const canonicalization = attribute(requiredChild(signedInfo, NS.ds, 'CanonicalizationMethod'), 'Algorithm') ?? '';
  if (!ALLOWED_CANONICALIZATIONS.includes(canonicalization)) throw new SignatureRefusedError(`The canonicalization ${canonicalization} is not allowed`);
  const method = attribute(requiredChild(signedInfo, NS.ds, 'SignatureMethod'), 'Algorithm') ?? '';
  if (!(algorithms as readonly string[]).includes(method)) throw new SignatureRefusedError(`The signature algorithm ${method} is not allowed (allowed: ${algorithms.join(', ')})`);
  const references = childElements(signedInfo, NS.ds, 'Reference');
  if (references.length !== 1) throw new SignatureRefusedError('The signature must have exactly one Reference');
  const reference = references[0]!;
  if (attribute(reference, 'URI') !== `#${id}`) throw new SignatureRefusedError('The signature does not refer to the message it is in');
  const transforms = childElements(reference, NS.ds, 'Transforms').flatMap((holder) => childElements(holder, NS.ds, 'Transform'));
  const badTransform = transforms.map((transform) => attribute(transform, 'Algorithm') ?? '').find((algorithm) => !ALLOWED_TRANSFORMS.includes(algorithm));
  if (badTransform !== undefined) throw new SignatureRefusedError(`The transform ${badTransform} is not allowed`);
  const digest = attribute(requiredChild(reference, NS.ds, 'DigestMethod'), 'Algorithm') ?? '';
  if (!ALLOWED_DIGESTS.includes(digest)) throw new SignatureRefusedError(`The digest algorithm ${digest} is not allowed`);

  if (certificates.length === 0) throw new SignatureRefusedError('The peer has no signing certificate in its metadata');
  for (const certificate of certificates) {
    // A new verifier per key: nothing one attempt leaves behind reaches the next.
    const verifier = new SignedXml({ publicCert: certificate, getCertFromKeyInfo: () => null });
    verifier.loadSignature(signature);
    let verified: boolean;
    try {
      verified = verifier.checkSignature(xml);
    } catch {
      // A throw is a failure, and what the verifier recorded before it is never read.
      continue;
    }
    if (!verified) continue;
    const signed = verifier.getSignedReferences();
    if (signed.length !== 1) continue;
    let covered: Element;
    try {
      covered = parseXml(signed[0]!, maxBytes).documentElement;
    } catch (error) {
      if (error instanceof UnreadableXmlError) throw new SignatureRefusedError(`What the signature covers is unreadable: ${error.reason}`);
      throw error;
    }
    if (covered.namespaceURI !== root.namespaceURI || covered.localName !== root.localName || attribute(covered, 'ID') !== id) continue;
    return covered;
  }
  throw new SignatureRefusedError("The signature does not verify with the peer's certificates");
}

function elementsWithId(document: Document, id: string): Element[] {
  const all = document.getElementsByTagName('*');
  const found: Element[] = [];
  for (let index = 0; index < all.length; index++) {
    const element = all.item(index)!;
    if (['ID', 'Id', 'id'].some((name) => element.getAttribute(name) === id)) found.push(element);
  }
  return found;
}

/** A key pair that signs: the private key and its certificate, both PEM. */
export interface SigningCredential {
  readonly privateKey: string;
  readonly certificate: string;
}

/**
 * The private keys tessera signs with, each parsed from its PEM once: a key handed to OpenSSL as PEM is
 * parsed, and its RSA precomputation redone, on every signature, which costs about two thirds as much
 * again as the signature itself (RSA-3072: 4.4 ms instead of 2.6). Keys change only at a rollover, so
 * a handful at most; past that the cache starts afresh.
 */
const parsedKeys = new Map<string, KeyObject>();
/** The KeyInfo content (the certificate, `ds:` prefixed) of each signing certificate, read once. */
const keyInfoContents = new Map<string, string | null>();
const MOST_CACHED_KEYS = 16;

/** The parsed private key of a credential, to sign with. */
export function signingKeyOf(credential: SigningCredential): KeyObject {
  return cached(parsedKeys, credential.privateKey, () => createPrivateKey(credential.privateKey));
}

function keyInfoContentOf(certificate: string): string | null {
  return cached(keyInfoContents, certificate, () => SignedXml.getKeyInfoContent({ publicCert: certificate, prefix: 'ds' }));
}

function cached<Value>(cache: Map<string, Value>, key: string, make: () => Value): Value {
  if (cache.has(key)) return cache.get(key)!;
  if (cache.size >= MOST_CACHED_KEYS) cache.clear();
  const value = make();
  cache.set(key, value);
  return value;
}

/** The digest a signature algorithm goes with. */
function digestFor(algorithm: SignatureAlgorithm): string {
  return algorithm === SIGNATURE_ALGORITHM.rsaSha512 ? DIGEST.sha512 : DIGEST.sha256;
}

/**
 * Signs the element of `xml` whose ID is `id` with an enveloped signature where SAML's schema places
 * it: right after the element's Issuer (a message, an assertion), or first (metadata). Exclusive
 * canonicalization, the algorithm given, the certificate in KeyInfo. Returns the signed document's text.
 */
export function signEnveloped(xml: string, id: string, credential: SigningCredential, algorithm: SignatureAlgorithm, placement: 'after-issuer' | 'first' = 'after-issuer'): string {
  const keyInfoContent = keyInfoContentOf(credential.certificate);
  const signer = new SignedXml({
    privateKey: signingKeyOf(credential),
    publicCert: credential.certificate,
    getKeyInfoContent: () => keyInfoContent,
    signatureAlgorithm: algorithm,
    canonicalizationAlgorithm: EXCLUSIVE_C14N,
  });
  const target = `//*[@ID='${id}']`;
  signer.addReference({ xpath: target, transforms: [ENVELOPED, EXCLUSIVE_C14N], digestAlgorithm: digestFor(algorithm) });
  const location =
    placement === 'first'
      ? { reference: target, action: 'prepend' as const }
      : { reference: `${target}/*[local-name(.)='Issuer' and namespace-uri(.)='${NS.saml}']`, action: 'after' as const };
  signer.computeSignature(xml, { prefix: 'ds', location });
  return signer.getSignedXml();
}
