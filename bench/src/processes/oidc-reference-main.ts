import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { errors, type ClientMetadata, type Configuration, type ResponseType } from 'oidc-provider';
import { ModelMemory } from './model-memory.js';
import type { OidcReferenceSettings } from './oidc-reference.js';

/**
 * The reference of the OIDC rows, run as a process of its own: node-oidc-provider alone on node:http,
 * configured as tessera configures it (oidc-provider.ts in adapter-koa) wherever a setting changes what
 * the library does or answers: the same issuer path, keys, cookies, TTLs, scopes and claims, response
 * types, client authentication methods, features and the same client (as a static client, the library's
 * way), storage in memory as the library's own adapter keeps it. Left out is what is tessera's work: the
 * client from the service registry, the account and its claims through the relying-party path, the
 * events, the login through /login. Its one account is logged in by the interaction route below, which
 * finishes every interaction at once with the login and consent a user gives tessera. Usage:
 * oidc-reference-main.js SETTINGS_FILE (JSON, OidcReferenceSettings). Prints its origin on stdout once
 * listening; SIGTERM stops it.
 */

const [settingsFile] = process.argv.slice(2);
if (settingsFile === undefined) throw new Error('usage: oidc-reference-main.js SETTINGS_FILE');
const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as OidcReferenceSettings;
const { account, lifetimes } = settings;
const prefix = `${settings.basePath}/oidc`;
const issuer = `http://127.0.0.1:${settings.port}${prefix}`;

const memory = new ModelMemory();
const configuration: Configuration = {
  adapter: (model: string) => memory.adapter(model),
  clients: [settings.client as ClientMetadata],
  jwks: { keys: settings.keys.keys.map((key) => ({ ...key })) },
  cookies: {
    keys: [...settings.keys.cookieSecrets],
    long: { signed: true, httpOnly: true, sameSite: 'lax', path: settings.basePath === '' ? '/' : settings.basePath },
    short: { signed: true, httpOnly: true, sameSite: 'lax' },
    names: { session: 'OIDC_SESSION', interaction: 'OIDC_INTERACTION', resume: 'OIDC_RESUME' },
  },
  claims: settings.claims,
  scopes: settings.scopes,
  conformIdTokenClaims: false,
  subjectTypes: ['public', 'pairwise'],
  responseTypes: settings.responseTypes as ResponseType[],
  clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt', 'none'],
  pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
  features: {
    devInteractions: { enabled: false },
    // As tessera's: pushed authorization requests not served.
    pushedAuthorizationRequests: { enabled: false },
    clientCredentials: { enabled: true },
    encryption: { enabled: true },
    jwtResponseModes: { enabled: true },
    // As tessera's for a client whose access tokens are not JWTs: no resource of its own, any named one refused.
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: () => {
        throw new errors.InvalidTarget();
      },
    },
    introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId) },
    revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId) },
    userinfo: { enabled: true },
    backchannelLogout: { enabled: true },
    rpInitiatedLogout: { enabled: true },
  },
  interactions: { url: (_ctx, interaction) => `${issuer}/interaction/${interaction.uid}` },
  issueRefreshToken: (_ctx, client) => Promise.resolve(client.grantTypeAllowed('refresh_token')),
  rotateRefreshToken: (ctx) => ctx.oidc.client?.clientAuthMethod === 'none',
  ttl: {
    AccessToken: lifetimes.accessTokenSeconds,
    IdToken: lifetimes.idTokenSeconds,
    RefreshToken: lifetimes.refreshTokenSeconds,
    AuthorizationCode: lifetimes.codeSeconds,
    Interaction: lifetimes.interactionSeconds,
    Session: (_ctx, session) => Math.max(1, lifetimes.loginSessionSeconds - (session.loginTs === undefined ? 0 : Math.max(0, Math.floor(Date.now() / 1000) - session.loginTs))),
    Grant: lifetimes.grantSeconds,
  },
  findAccount: (_ctx, sub) => (sub === account.id ? { accountId: sub, claims: () => ({ ...account.claims, sub }) } : undefined),
};

const provider = new Provider(issuer, configuration);
const handle = provider.callback();

/** Logs the account in and consents to every scope asked, as the user of the bench's session does at tessera. */
async function finishInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const { client_id: clientId, scope } = details.params;
  if (typeof clientId !== 'string') throw new Error('an interaction without a client');
  const grant = new provider.Grant({ accountId: account.id, clientId });
  grant.addOIDCScope(typeof scope === 'string' ? scope : 'openid');
  const grantId = await grant.save();
  const login = { accountId: account.id, amr: [...account.amr], ...(account.acr !== undefined && { acr: account.acr }) };
  await provider.interactionFinished(req, res, { login, consent: { grantId } }, { mergeWithLastSubmission: false });
}

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith(`${prefix}/interaction/`)) {
    finishInteraction(req, res).catch((error: unknown) => {
      process.stderr.write(`the reference's interaction failed: ${String(error)}\n`);
      res.statusCode = 500;
      res.end();
    });
    return;
  }
  if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
    // Mounted under the issuer's path, as the library is mounted on node:http: it reads its mount path from originalUrl.
    Object.assign(req, { originalUrl: url });
    req.url = url.slice(prefix.length) || '/';
    void handle(req, res);
    return;
  }
  res.statusCode = 404;
  res.end();
});
server.listen(settings.port, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${settings.port}\n`));
process.once('SIGTERM', () => {
  memory.stop();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
