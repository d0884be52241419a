// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { readFileSync } from 'node:fs';
import { createPrivateKey, webcrypto } from 'node:crypto';
import type { RandomSource } from '@tessera/core';
import { promoteNextKey, publishNextKey, samlKeySetProblem, type SamlKeySet } from '@tessera/core/modules/saml2';
import type { Output } from '../../cli/command.js';

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 3072 } as const;
/** Twenty years, as SAML IdPs make theirs: trust comes from the metadata, not from the certificate's dates, and rotation is by choice. */
const VALIDITY_MS = 20 * 365 * 24 * 3_600_000;

/** A fresh RSA-3072 key and a self-signed certificate naming the IdP and the key's use. */
export async function generateSamlKeyPair(entityId: string, use: 'signing' | 'encryption', random: RandomSource, now = Date.now()): Promise<{ privateKey: string; certificate: string }> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const host = hostOf(entityId);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // A positive serial: the high bit of the first byte clear.
    serialNumber: Buffer.from(random.bytes(16)).toString('hex').replace(/^./, (digit) => (parseInt(digit, 16) & 7).toString(16)),
    name: `CN=${host} SAML ${use}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + VALIDITY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { privateKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }) as string, certificate: certificate.toString('pem') };
}

function hostOf(entityId: string): string {
  try {
    return new URL(entityId).hostname.replace(/[^A-Za-z0-9.-]/g, '') || 'tessera';
  } catch {
    return 'tessera';
  }
}

/** A fresh key set: a current signing key, a current encryption key, a new persistent-id salt. */
export async function generateSamlKeySet(entityId: string, random: RandomSource): Promise<SamlKeySet> {
  const [signing, encryption] = await Promise.all([generateSamlKeyPair(entityId, 'signing', random), generateSamlKeyPair(entityId, 'encryption', random)]);
  return {
    signing: [{ state: 'current', ...signing }],
    encryption: [{ state: 'current', ...encryption }],
    persistentIdSalt: Buffer.from(random.bytes(32)).toString('base64url'),
  };
}

/**
 * One step of a rotation of both uses' keys (core's publishNextKey, promoteNextKey): a set without next
 * keys gets new ones, published beside the current ones; a set with next keys promotes them, the
 * current ones staying published as the previous ones. The salt never changes: persistent NameIDs stay.
 */
export async function rotateSamlKeySet(set: SamlKeySet, entityId: string, random: RandomSource): Promise<{ readonly set: SamlKeySet; readonly promoted: boolean }> {
  const promotedSigning = promoteNextKey(set.signing);
  const promotedEncryption = promoteNextKey(set.encryption);
  if (promotedSigning !== undefined || promotedEncryption !== undefined) {
    return { set: { ...set, signing: promotedSigning ?? set.signing, encryption: promotedEncryption ?? set.encryption }, promoted: true };
  }
  const [signing, encryption] = await Promise.all([generateSamlKeyPair(entityId, 'signing', random), generateSamlKeyPair(entityId, 'encryption', random)]);
  return { set: { ...set, signing: publishNextKey(set.signing, signing), encryption: publishNextKey(set.encryption, encryption) }, promoted: false };
}

/**
 * `tessera saml2 generate-keys`: prints a fresh key set; with `rollover`, the next step of rolling over the
 * set of that file, and on stderr what to do next. Returns the exit code.
 */
export async function generateSaml2Keys(rollover: string | undefined, entityId: string | undefined, random: RandomSource, out: Output, err: Output): Promise<number> {
  const name = entityId ?? 'https://tessera/idp';
  if (rollover === undefined) {
    out.write(`${JSON.stringify(await generateSamlKeySet(name, random), null, 2)}\n`);
    return 0;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(rollover, 'utf8'));
  } catch (error) {
    err.write(`tessera saml2 generate-keys: --rollover ${rollover}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not a JSON key set'}\n`);
    return 2;
  }
  const problem = samlKeySetProblem(parsed);
  if (problem) {
    err.write(`tessera saml2 generate-keys: --rollover ${rollover}: ${problem}\n`);
    return 2;
  }
  const { set, promoted } = await rotateSamlKeySet(parsed as SamlKeySet, name, random);
  out.write(`${JSON.stringify(set, null, 2)}\n`);
  err.write(
    promoted
      ? 'The next keys are now current; the former ones stay in the metadata as the previous ones. Once every SP has fetched the metadata, run --rollover again to publish the next keys of the following rotation (which drops the previous ones).\n'
      : 'New keys are published in the metadata as the next ones; the current ones still sign. Once every SP has fetched the metadata, run --rollover again to sign with them.\n',
  );
  return 0;
}

