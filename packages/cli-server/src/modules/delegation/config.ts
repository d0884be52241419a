import { z } from 'zod';
import { positiveInteger, section } from '../../config/setting-schemas.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An upstream's URL: https, or plain http on this machine only (a test's or a sidecar's). */
const upstreamUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, error: `expected the ${what} as an https URL` })
    .refine((url) => !URL.canParse(url) || new URL(url).protocol === 'https:' || LOOPBACK.has(new URL(url).hostname), {
      error: `expected the ${what} as an https URL (plain http only on localhost)`,
    })
    .overwrite((url) => url.replace(/\/+$/, ''));

const text = (what: string) => z.string({ error: `expected ${what}` }).trim().min(1, { error: `expected ${what}` });

const oidcUpstream = section({
  issuer: upstreamUrl('issuer').describe('The upstream OpenID provider’s issuer: its discovery document is read from `<issuer>/.well-known/openid-configuration`, and every answer must name this issuer.'),
  clientId: text('a client id').describe('The client id tessera is registered under at the upstream.'),
  clientSecret: text('a client secret')
    .optional()
    .describe('The client secret (client_secret_basic). Unset: a public client (PKCE alone). Its value is never logged.'),
  scopes: z
    .array(text('a scope'), { error: 'expected a list of scopes' })
    .default(['openid', 'profile', 'email'])
    .refine((scopes) => scopes.includes('openid'), { error: 'must include openid' })
    .describe('The scopes asked of the upstream; `openid` is required.'),
});

const casUpstream = section({
  serverUrl: upstreamUrl('CAS server URL').describe('The upstream CAS server’s prefix, such as `https://cas.partner.example/cas`: the browser goes to `<serverUrl>/login`, the ticket is validated at `<serverUrl>/p3/serviceValidate` (CAS 3).'),
});

const oauth2Upstream = section({
  authorizationUrl: upstreamUrl('authorization URL').describe('Where the browser asks the provider for a code (code flow, PKCE S256, the state).'),
  tokenUrl: upstreamUrl('token URL').describe('Where tessera exchanges the code for an access token (client_secret_basic).'),
  profileUrl: upstreamUrl('profile URL').describe('Where tessera reads the user’s profile, a JSON object, with the access token (`https://api.github.com/user`).'),
  clientId: text('a client id').describe('The client id tessera is registered under at the provider.'),
  clientSecret: text('a client secret').describe('The client secret. Its value is never logged.'),
  scopes: z.array(text('a scope'), { error: 'expected a list of scopes' }).default([]).describe('The scopes asked of the provider.'),
  idAttribute: text('an attribute name').default('id').describe('The profile’s field that is the user’s id at the provider.'),
});

/** The metadata's place: an https URL (plain http on this machine only), else a file path. */
const metadataLocation = text('the identity provider’s metadata').refine(
  (location) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(location) || (URL.canParse(location) && (new URL(location).protocol === 'https:' || (new URL(location).protocol === 'http:' && LOOPBACK.has(new URL(location).hostname)))),
  { error: 'expected a file path, or an https URL (plain http only on localhost)' },
);

const saml2Upstream = section({
  metadata: metadataLocation.describe(
    'The identity provider’s SAML 2 metadata: a file path, or an https URL read at the first login (and again an hour later, or after a failure). Its single sign-on service over HTTP-Redirect is where the browser goes; its signing certificates are the only ones a Response may be signed with.',
  ),
  idpEntityId: text('the identity provider’s entity id').describe('The identity provider’s entity id: its EntityDescriptor in the metadata, and the issuer every assertion must name.'),
  spEntityId: text('an entity id')
    .optional()
    .describe('tessera’s entity id at this identity provider, the audience every assertion must name. Unset: the URL of its metadata, `<server.publicUrl><server.basePath>/delegation/saml2/<id>/metadata`.'),
  keyFile: text('a file path')
    .optional()
    .describe('A PEM file holding tessera’s private key for this identity provider (the operator makes it, with `certificateFile`; never in version control): AuthnRequests are signed with it when `signAuthnRequests` is on, LogoutRequests always (`logout`), and encrypted assertions decrypted with it.'),
  certificateFile: text('a file path').optional().describe('A PEM file holding the certificate of `keyFile`, published in tessera’s metadata for signing and encryption.'),
  signAuthnRequests: z.boolean({ error: 'expected true or false' }).default(false).describe('Sign the AuthnRequests (HTTP-Redirect, RSA-SHA256) with `keyFile`.'),
  nameIdFormat: text('a NameID format')
    .optional()
    .describe('The NameID format asked in the AuthnRequest’s NameIDPolicy (`urn:oasis:names:tc:SAML:2.0:nameid-format:persistent`). Unset: none asked, the identity provider’s choice.'),
  wantAssertionsSigned: z
    .boolean({ error: 'expected true or false' })
    .default(true)
    .describe('Require the assertion itself to be signed (and say so in tessera’s metadata). Either way a Response is taken only when it or its assertion is signed by the identity provider.'),
  wantResponseSigned: z
    .boolean({ error: 'expected true or false' })
    .default(false)
    .describe('Require the Response itself to be signed. Either way a Response is taken only when it or its assertion is signed by the identity provider.'),
  clockSkewSeconds: z
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(0, { error: 'expected 0 or more seconds' })
    .max(600, { error: 'expected at most 600 seconds' })
    .default(120)
    .describe('How far the identity provider’s clock may be from tessera’s when the assertion’s NotBefore and NotOnOrAfter are judged, in seconds.'),
});

const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

const provider = section({
  id: z
    .string({ error: 'expected an id' })
    .regex(PROVIDER_ID, { error: 'expected 1 to 64 letters, digits, - or _' })
    .describe('The provider’s id: what services name in `delegatedAuthenticationPolicy.allowedProviders`, and the authentication attribute `delegatedProvider` of a login through it.'),
  type: z
    .enum(['oidc', 'oauth2', 'cas', 'saml2'], { error: 'expected oidc, oauth2, cas or saml2' })
    .describe('The upstream’s protocol: `oidc` (OpenID Connect, code flow with PKCE), `oauth2` (plain OAuth 2.0 with a profile URL), `cas` (CAS 3 validation) or `saml2` (a SAML 2 identity provider, Web Browser SSO with signed Responses).'),
  title: text('a title').describe('The button’s text on the login page, after “Log in with”.'),
  logoUrl: z
    .url({ protocol: /^https$/, error: 'expected an https URL' })
    .optional()
    .describe('An image shown on the button: an https URL.'),
  oidc: oidcUpstream.optional().describe('The upstream OpenID provider (`type: oidc`).'),
  oauth2: oauth2Upstream.optional().describe('The upstream OAuth 2.0 provider (`type: oauth2`).'),
  cas: casUpstream.optional().describe('The upstream CAS server (`type: cas`).'),
  saml2: saml2Upstream.optional().describe('The upstream SAML 2 identity provider (`type: saml2`).'),
  principalAttribute: text('an attribute name')
    .optional()
    .describe('The upstream attribute (an ID token or userinfo claim, a CAS attribute, a SAML attribute by its Name) whose value is the user’s id in tessera. Unset: the upstream’s own id (`sub`, the CAS user, the SAML NameID).'),
  attributes: z
    .record(z.string(), text('an attribute name'), { error: 'expected a map of upstream attribute names to tessera attribute names' })
    .optional()
    .describe('Which upstream attributes the user gets, each under the tessera name given (`{ email: mail }`). Unset: every upstream attribute under its own name.'),
  linkAttribute: text('an attribute name')
    .optional()
    .describe('An upstream attribute whose value is a local user’s username: when the user directory has that user, the login is that user’s, with the directory’s attributes beside the upstream’s.'),
  requireLink: z
    .boolean({ error: 'expected true or false' })
    .default(false)
    .describe('Refuse a login through this provider whose `linkAttribute` names no local user (only local users may log in through it).'),
  logout: z
    .boolean({ error: 'expected true or false' })
    .default(false)
    .describe(
      'End the user’s session upstream too when they log out at tessera’s `/logout`, after tessera’s own logout: an OpenID provider’s RP-initiated logout (its discovery’s `end_session_endpoint`, with the login’s ID token as `id_token_hint`), a CAS server’s `/logout`, a SAML 2 identity provider’s single logout (a LogoutRequest signed with `saml2.keyFile`, which it requires, over HTTP-Redirect to the SingleLogoutService of its metadata, which must have one). The browser comes back to `<publicUrl>/delegation/logout`, which the upstream must accept (a `post_logout_redirect_uris` entry; a service of the CAS server; the SingleLogoutService of tessera’s SP metadata, where a SAML 2 LogoutResponse must verify). Not for `oauth2`, which has no logout.',
    ),
  timeoutSeconds: positiveInteger(120)
    .default(10)
    .describe('How long tessera waits for the upstream (discovery, the token or validation call, a SAML metadata URL), in seconds.'),
});

export type UpstreamProviderSettings = z.output<typeof provider>;

export const delegationSections = {
  delegation: section({
    providers: z
      .array(provider, { error: 'expected a list of upstream providers' })
      .default([])
      .describe('The upstream identity providers users may log in through, in the order of their buttons on the login page.'),
    stateSeconds: positiveInteger(3600)
      .default(600)
      .describe('How long a login may stay upstream before it comes back, in seconds: the state, nonce and PKCE verifier kept for it expire then.'),
    waitingPerAddress: positiveInteger(100_000)
      .default(100)
      .describe('Logins one client address (an IPv6 address: its /64 network) may have waiting upstream; past it, the address’s earliest are dropped, so a flood of button clicks from one address holds this many at most. Raise it for many users behind one address (NAT) without `server.trustProxy`.'),
  }).prefault({}),
};
