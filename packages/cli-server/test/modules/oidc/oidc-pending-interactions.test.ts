import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { buildContainer, createLogger, initialServices, parseConfig, KEYS, type Binder } from '@tessera/cli-server';
import { cryptoRandomSource, type RecordStores } from '@tessera/core';
import { generateLoginSecret } from '@tessera/core/modules/login';
import { generateOidcKeySet } from '@tessera/core/modules/oidc';
import { AUTHORIZATION_REQUEST_BYTES } from '@tessera/adapter-koa/modules/oidc';
import { FixedClock } from '@tessera/testkit';

const RP = {
  '@class': 'org.apereo.cas.services.OidcRegisteredService',
  id: 10,
  name: 'RP',
  serviceId: '^https://rp\\.example\\.org/callback$',
  clientId: 'rp',
  clientSecret: 'rp-secret-of-at-least-16',
  scopes: ['java.util.HashSet', ['openid', 'profile', 'email']],
  bypassApprovalPrompt: true,
};

/** An authorization request as openid-client builds one: a state, a nonce, a PKCE challenge, the redirect URI. */
const TYPICAL = new URLSearchParams({
  client_id: 'rp',
  response_type: 'code',
  scope: 'openid profile email',
  redirect_uri: 'https://rp.example.org/callback',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'r0VNFUCdXb9-IMjSd_H8Khmz9vqO63pyiXjZVv4iJ5E',
  nonce: 'Xs6Xb2UvGqDwl0cz4gVmGD6dK0mzGi2Wm5xX3Y4bP1c',
}).toString();

const LIMIT = 10;
const INTERACTION_SECONDS = 600;

/**
 * The oidc module's records of unauthenticated authorization requests on memory storage (docs/modules/oidc.md,
 * Bounded interactions): how many a flood from one address leaves, how many bytes each costs, how long they live.
 */
describe('oidc: what unauthenticated authorization requests keep, on memory storage', () => {
  let binder: Binder;
  let server: Server;
  let base: string;
  let records: RecordStores;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock(Date.now());
    const config = parseConfig({
      modules: ['login', 'oidc'],
      server: { basePath: '/cas', publicUrl: 'https://sso.example.org' },
      oidc: { keys: JSON.stringify(generateOidcKeySet(cryptoRandomSource)), interactionsPerAddress: LIMIT, interactionSeconds: INTERACTION_SECONDS },
      login: { key: generateLoginSecret(cryptoRandomSource) },
      services: [RP],
    });
    binder = buildContainer({ config, services: await initialServices(config), logger: createLogger('silent'), clock });
    await binder.open();
    records = binder.get(KEYS.RecordStores);
    server = createServer(binder.get(KEYS.HttpApp).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cas`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await binder.close();
  });

  /** An authorization request of a browser without a session: the uid of the interaction it started, or its status when it started none. */
  async function authorize(query: string, init: RequestInit = {}): Promise<string | number> {
    const answer = await fetch(`${base}/oidc/auth${query === '' ? '' : `?${query}`}`, { redirect: 'manual', ...init });
    const uid = /\/interaction\/([A-Za-z0-9_-]+)$/.exec(answer.headers.get('location') ?? '')?.[1];
    return uid ?? answer.status;
  }

  /** Every record of the namespace and its bytes as JSON, found through the memory storage's own count. */
  async function held(uids: readonly string[]): Promise<{ interactions: number; bytes: number; indexed: number }> {
    let interactions = 0;
    let bytes = 0;
    let indexed = 0;
    for (const uid of uids) {
      const interaction = await records.namespace('oidc.interaction').get(uid);
      const index = await records.namespace('oidc.interaction-address').get(uid);
      if (interaction !== undefined) interactions += 1;
      if (index !== undefined) indexed += 1;
      bytes += (interaction === undefined ? 0 : JSON.stringify(interaction).length + uid.length) + (index === undefined ? 0 : JSON.stringify(index).length + uid.length);
    }
    return { interactions, bytes, indexed };
  }

  const size = () => (records as unknown as { size: number }).size;

  it(`200 requests from one address keep ${LIMIT} interactions, the latest; one typical request costs under 1 KB, the largest allowed under 5 KB`, async () => {
    const before = size();
    const uids: string[] = [];
    for (let request = 0; request < 200; request++) {
      const uid = await authorize(TYPICAL);
      expect(uid).to.be.a('string');
      uids.push(uid as string);
    }
    expect(size() - before).to.equal(2 * LIMIT);
    const kept = await held(uids);
    expect(kept.interactions).to.equal(LIMIT);
    expect(kept.indexed).to.equal(LIMIT);
    expect((await held(uids.slice(-LIMIT))).interactions).to.equal(LIMIT);
    expect(kept.bytes / LIMIT).to.be.below(1024);

    // The parameters the provider keeps (it drops those it does not know) as long as allowed.
    const longest = new URLSearchParams(TYPICAL);
    longest.set('state', '');
    longest.set('state', 'x'.repeat(AUTHORIZATION_REQUEST_BYTES - longest.toString().length));
    expect(longest.toString().length).to.equal(AUTHORIZATION_REQUEST_BYTES);
    const largest = await authorize(longest.toString());
    expect(largest).to.be.a('string');
    expect((await held([largest as string])).bytes).to.be.below(5 * 1024);
    expect(size() - before).to.equal(2 * LIMIT);
  });

  it(`a request with more than ${AUTHORIZATION_REQUEST_BYTES} bytes of parameters is refused (413) and keeps nothing; nor does a POST, which is not served`, async () => {
    const before = size();
    const padding = AUTHORIZATION_REQUEST_BYTES - TYPICAL.length;
    expect(await authorize(`${TYPICAL}&state2=${'x'.repeat(padding)}`)).to.equal(413);
    expect(await authorize('', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: TYPICAL })).to.equal(404);
    expect(size()).to.equal(before);
  });

  it(`interactions are kept ${INTERACTION_SECONDS} seconds by the clock, and then no longer`, async () => {
    const uid = (await authorize(TYPICAL)) as string;
    clock.advance((INTERACTION_SECONDS - 1) * 1000);
    expect((await held([uid])).interactions).to.equal(1);
    clock.advance(1000);
    expect(await held([uid])).to.deep.equal({ interactions: 0, bytes: 0, indexed: 0 });
  });
});
