import type { SamlKey } from '@tessera/core/modules/saml2';
import { decrypt } from 'xml-encryption';
import { DATA_ENCRYPTION_ALGORITHMS } from './saml-response.js';
import { attribute, childElements, isElement, NS, optionalChild, parseXml, serialize, UnreadableXmlError } from './xml.js';

/** An EncryptedID that none of the IdP's encryption keys opens, or that does not hold a NameID. */
export class UndecryptableIdError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** The keys an SP may have encrypted for, in the order they are tried: the current one first, then the next or previous one the metadata also publishes. */
function decryptionOrder(keys: readonly SamlKey[]): readonly SamlKey[] {
  return [...keys].sort((a, b) => Number(b.state === 'current') - Number(a.state === 'current'));
}

function decryptWith(encryptedData: string, key: SamlKey): Promise<string> {
  return new Promise((resolve, reject) => {
    decrypt(encryptedData, { key: key.privateKey, disallowDecryptionWithInsecureAlgorithm: true, warnInsecureAlgorithm: false }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * The saml:NameID of a saml:EncryptedID (SAML Core §2.2.4), decrypted with the IdP's encryption keys.
 * Called only on a message whose signature has been verified, so what is decrypted is what the SP signed.
 */
export async function decryptNameId(encryptedId: Element, keys: readonly SamlKey[], maxBytes: number): Promise<Element> {
  const encryptedData = childElements(encryptedId, NS.xenc, 'EncryptedData');
  if (encryptedData.length !== 1) throw new UndecryptableIdError('The EncryptedID holds no single EncryptedData');
  const method = optionalChild(encryptedData[0]!, NS.xenc, 'EncryptionMethod');
  const algorithm = method === undefined ? undefined : attribute(method, 'Algorithm');
  // AES-CBC is refused, as xml-encryption does by default: the metadata asks SPs for AES-GCM.
  if (algorithm === undefined || !(DATA_ENCRYPTION_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new UndecryptableIdError(`The EncryptedID is encrypted with ${algorithm ?? 'no named algorithm'}; tessera decrypts ${DATA_ENCRYPTION_ALGORITHMS.join(' or ')}, as its metadata says`);
  }
  const serialized = serialize(encryptedId);
  let decrypted: string | undefined;
  for (const key of decryptionOrder(keys)) {
    try {
      decrypted = await decryptWith(serialized, key);
      break;
    } catch {
      // Another key of the set may open it; none opening it is the refusal below.
    }
  }
  if (decrypted === undefined) throw new UndecryptableIdError("The EncryptedID does not decrypt with any of tessera's encryption keys");
  try {
    const nameId = parseXml(decrypted, maxBytes).documentElement;
    if (!isElement(nameId, NS.saml, 'NameID')) throw new UndecryptableIdError(`The EncryptedID holds a ${nameId.localName}, not a NameID`);
    return nameId;
  } catch (error) {
    if (error instanceof UnreadableXmlError) throw new UndecryptableIdError(`The decrypted EncryptedID is unreadable: ${error.message}`);
    throw error;
  }
}
