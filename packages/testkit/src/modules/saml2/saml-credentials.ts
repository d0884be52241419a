// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';

/** An RSA key pair and its self-signed certificate, both PEM: what a SAML peer signs and encrypts with. */
export interface SamlCredential {
  readonly privateKey: string;
  readonly certificate: string;
}

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
const DAY = 24 * 60 * 60 * 1000;

/** A fresh RSA-2048 key and a self-signed certificate for `subject` (CN=…), valid a day before and a year after `now`. */
export async function samlCredential(subject = 'CN=saml test', now = Date.now()): Promise<SamlCredential> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex').replace(/^[89a-f]/, '1'),
    name: subject,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    keys,
    signingAlgorithm: ALGORITHM,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { privateKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }) as string, certificate: certificate.toString('pem') };
}

