import { z } from 'zod';
import { SIGNATURE_ALGORITHMS, samlKeySetProblem } from '@tessera/core/modules/saml2';
import { filePath, flag, integerFrom, positiveInteger, section } from '../../config/setting-schemas.js';

/** Settings of the `saml2` module (docs/modules/saml2.md): the IdP's name, its keys, and how strictly it reads SPs' messages. */
export const saml2Schema = section({
  entityId: z
    .url({ error: 'expected a URL' })
    .optional()
    .describe('The entity id SPs know tessera by, in its metadata and every assertion. Unset: `server.publicUrl` + `server.basePath` + `/idp`, as Apereo CAS names its IdP.'),
  keys: z
    .string({ error: 'expected the key set as JSON text' })
    .optional()
    .describe('The signing and encryption keys and the persistent-id salt as JSON text (what `tessera saml2 generate-keys` prints), e.g. from a variable. Unset: taken from `saml2.keyFile`. Every node needs the same.'),
  keyFile: filePath()
    .default('tessera-saml2-keys.json')
    .meta({ defaultText: '`tessera-saml2-keys.json` (in demo mode: in `~/.local/state/tessera`, or `$XDG_STATE_HOME/tessera`)' })
    .describe('Where the key set is kept when `saml2.keys` is unset: read if it exists, else generated when the server starts and written with mode 0600. Share it between nodes; SPs know its certificates from the metadata.'),
  signMetadata: flag().default(false).describe('Sign the IdP metadata (`/idp/metadata`) with the current signing key.'),
  metadataValidSeconds: positiveInteger(31_536_000).default(604_800).describe('How long SPs may use a copy of the IdP metadata (its `validUntil` and `cacheDuration`).'),
  assertionSeconds: positiveInteger(3600).default(300).describe('How long an assertion may be presented to its SP (`NotOnOrAfter` of its conditions and subject confirmation).'),
  skewSeconds: integerFrom(0, 600).default(60).describe("Clock difference allowed with SPs, unless an SP's definition sets `skewAllowance`: on a request's IssueInstant, and before an assertion's NotBefore."),
  requestMaxAgeSeconds: positiveInteger(3600).default(300).describe("How old an SP's request may be (its IssueInstant), besides the skew; its ID is remembered that long, so it is accepted once."),
  maxMessageBytes: integerFrom(4096, 1_048_576).default(65_536).describe('The largest SAML message accepted from an SP, in bytes of XML (an HTTP-Redirect message once inflated).'),
  signatureAlgorithms: z
    .array(z.enum(SIGNATURE_ALGORITHMS as [string, ...string[]], { error: `expected one of ${SIGNATURE_ALGORITHMS.join(', ')}` }))
    .min(1, { error: 'expected at least one algorithm' })
    .default([...SIGNATURE_ALGORITHMS])
    .describe("The algorithms an SP's signature (on a request, or on its metadata) may use; SHA-1 is never accepted."),
  pendingPerAddress: positiveInteger(100_000)
    .default(100)
    .describe('SSO requests one client address (an IPv6 address: its /64 network) may have waiting for their logins; past it, the address’s earliest are dropped, so a flood of them from one address holds this many at most. Raise it for many users behind one address (NAT) without `server.trustProxy`.'),
  loginSeconds: positiveInteger(86_400).default(900).describe("How long a browser an SP sent has to log in at /login: the SP's request is kept that long for its answer, on every node."),
  metadataCacheSeconds: positiveInteger(604_800).default(3600).describe("How long an SP's metadata fetched from an https `metadataLocation` is kept before it is fetched again (less when the metadata says `cacheDuration` or `validUntil`)."),
}).superRefine((saml2, context) => {
  if (saml2.keys === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(saml2.keys);
  } catch {
    parsed = undefined;
  }
  const problem = samlKeySetProblem(parsed);
  if (problem) context.addIssue({ code: 'custom', path: ['keys'], message: problem, input: '(secret)' });
});

export type Saml2Config = z.output<typeof saml2Schema>;

export const saml2Sections = { saml2: saml2Schema.prefault({}) };
