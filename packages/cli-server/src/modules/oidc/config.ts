import { z } from 'zod';
import { oidcKeySetProblem } from '@tessera/core/modules/oidc';
import { filePath, positiveInteger, section } from '../../config/setting-schemas.js';

const SCOPE_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Settings of the `oidc` module (docs/modules/oidc.md). */
export const oidcSchema = section({
  keys: z
    .string({ error: 'expected the key set as JSON text' })
    .optional()
    .describe('The signing keys and cookie secrets as JSON text (what `tessera oidc generate-keys` prints), e.g. from a variable. Unset: taken from `oidc.keyFile`. Every node needs the same.'),
  keyFile: filePath()
    .default('tessera-oidc-keys.json')
    .meta({ defaultText: '`tessera-oidc-keys.json` (in demo mode: in `~/.local/state/tessera`, or `$XDG_STATE_HOME/tessera`)' })
    .describe('Where the key set is kept when `oidc.keys` is unset: read if it exists, else generated on first start and written with mode 0600. Share it between nodes.'),
  accessTokenSeconds: positiveInteger(86_400).default(3600).describe('Lifetime of an access token.'),
  idTokenSeconds: positiveInteger(86_400).default(3600).describe('Lifetime of an ID token.'),
  refreshTokenSeconds: positiveInteger(31_536_000)
    .default(1_209_600)
    .describe('Lifetime of a refresh token. It serves again until then, unless its client’s `renewRefreshToken` is true or the client is public: then each use gives a new one and ends the old (rotation).'),
  codeSeconds: positiveInteger(600).default(60).describe('Lifetime of an authorization code.'),
  interactionSeconds: positiveInteger(86_400)
    .default(1800)
    .describe('How long an authorization request is kept while its browser logs in (as long as a login form stays valid, by default); a login that comes back later is asked to start again from the application.'),
  interactionsPerAddress: positiveInteger(100_000)
    .default(100)
    .describe(
      'Authorization requests one client address (an IPv6 address: its /64 network) may have waiting for their logins; past it, the address’s earliest are dropped, so a flood of them from one address holds this many at most. Raise it for many users behind one address (NAT) without `server.trustProxy`.',
    ),
  fetchPrivateAddresses: z
    .boolean()
    .default(false)
    .describe(
      'Let the provider’s outgoing requests (back-channel logout to a client’s `logoutUrl`, a client’s `jwks` URL) reach loopback and private addresses. Off: refused, as node-oidc-provider guards against request forgery; turn it on when clients live on your private network.',
    ),
  scopes: z
    .record(z.string().regex(SCOPE_NAME, { error: 'expected a scope name' }), z.array(z.string().regex(SCOPE_NAME, { error: 'expected a claim name' })), {
      error: 'expected a map of scope name → claim names',
    })
    .default({})
    .describe(
      'Scopes of your own beside `profile`, `email`, `phone` and `address` (Apereo’s user-defined scopes): each releases the claims listed, from the attributes of the same names (or as `oidc.claimsMap` maps them), to a client that lists the scope in its `scopes`; an `OidcCustomScopeAttributeReleasePolicy` of the client for that scope says otherwise. A scope named nowhere here is not served.',
    ),
  claimsMap: z
    .record(z.string().regex(SCOPE_NAME, { error: 'expected a claim name' }), z.string().min(1, { error: 'expected an attribute name' }), {
      error: 'expected a map of claim name → attribute name',
    })
    .default({})
    .describe(
      'Claim → the attribute it takes its values from, for every client (Apereo’s `cas.authn.oidc.core.claims-map`): `email: mail` makes a directory’s `mail` the `email` claim. A client’s own `claimMappings` come first.',
    ),
}).superRefine((oidc, context) => {
  if (oidc.keys === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(oidc.keys);
  } catch {
    parsed = undefined;
  }
  const problem = oidcKeySetProblem(parsed);
  if (problem) context.addIssue({ code: 'custom', path: ['keys'], message: problem, input: '(secret)' });
});

export type OidcConfig = z.output<typeof oidcSchema>;

export const oidcSections = { oidc: oidcSchema.prefault({}) };
