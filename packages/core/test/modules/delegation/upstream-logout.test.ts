import { expect } from 'chai';
import { aTicketGrantingTicket, anAuthentication, MapRecordStores } from '@tessera/testkit';
import { cryptoRandomSource, type TicketGrantingTicket } from '../../../src/index.js';
import {
  DELEGATION_SESSIONS_NAMESPACE,
  delegatedCredential,
  delegatedLoginKey,
  DelegationRecords,
  UpstreamLogout,
  type DelegationLogoutFailedEvent,
  type DelegationProvider,
  type UpstreamProvider,
} from '../../../src/modules/delegation/index.js';
import { FixedClock, RecordingEvents } from '../../fakes.js';

const RETURN_URL = 'https://sso.example.org/cas/delegation/logout';
const MINUTE = 60_000;

/** An upstream whose logout is its URL with what it was given, or that fails as `down` says. */
function upstream(id: string, down = false): UpstreamProvider {
  return {
    id,
    authorizationUrl: () => Promise.resolve(`https://${id}.example/authorize`),
    identify: () => Promise.resolve({ id: 'alice', attributes: {} }),
    logoutUrl: (session, returnUrl, state) =>
      down ? Promise.reject(new TypeError('fetch failed')) : Promise.resolve(`https://${id}.example/logout?hint=${session['idToken'] ?? ''}&back=${encodeURIComponent(returnUrl)}&state=${state}`),
  };
}

describe('UpstreamLogout (the delegation module: the upstream’s logout after tessera’s)', () => {
  let clock: FixedClock;
  let events: RecordingEvents;
  let stores: MapRecordStores;
  let records: DelegationRecords;
  let logout: UpstreamLogout;

  beforeEach(() => {
    clock = new FixedClock();
    events = new RecordingEvents();
    stores = new MapRecordStores(clock);
    records = new DelegationRecords(stores, cryptoRandomSource, 100);
    const providers = new Map<string, DelegationProvider>([
      ['on', { upstream: upstream('on'), mapping: { requireLink: false }, logout: true }],
      ['off', { upstream: upstream('off'), mapping: { requireLink: false } }],
      ['down', { upstream: upstream('down', true), mapping: { requireLink: false }, logout: true }],
    ]);
    logout = new UpstreamLogout(providers, records, clock, events, 600);
  });

  /** A session a delegated login made, with what that login kept under its key (as DelegatedLogin keeps it). */
  async function sessionThrough(provider: string, idToken = 'the.id.token'): Promise<TicketGrantingTicket & { readonly loginKey: string }> {
    const proofId = Buffer.from(cryptoRandomSource.bytes(32)).toString('base64url');
    await records.keepLogin(delegatedLoginKey(proofId), { provider, session: { idToken } }, clock.now() + 10 * MINUTE);
    const credential = delegatedCredential(proofId);
    const tgt = aTicketGrantingTicket(clock, { authentication: anAuthentication({ credentials: [{ id: credential.id, type: credential.type }] }) });
    await logout.started(tgt);
    return { ...tgt, loginKey: delegatedLoginKey(proofId) };
  }

  it('moves what the login kept to the session it makes, for as long as the session may live; the session’s end drops it', async () => {
    const tgt = await sessionThrough('on');
    // Taken over: the login's key holds nothing any more.
    expect(await records.takeLogin(tgt.loginKey)).to.equal(undefined);
    expect(await logout.keptFor(tgt.id)).to.deep.equal({ provider: 'on', session: { idToken: 'the.id.token' } });
    // Stored under a digest, never the ticket's id.
    expect([...(stores.namespaces.get(DELEGATION_SESSIONS_NAMESPACE)?.keys() ?? [])].some((key) => key.includes(tgt.id))).to.equal(false);
    await logout.ended(tgt.id);
    expect(await logout.keptFor(tgt.id)).to.equal(undefined);

    const other = await sessionThrough('on');
    clock.advance(tgt.hardExpiresAt - clock.now());
    expect(await logout.keptFor(other.id)).to.equal(undefined);
  });

  it('keeps nothing for a session no delegated login made, and answers nothing for a provider with logout off', async () => {
    const password = aTicketGrantingTicket(clock);
    await logout.started(password);
    expect(await logout.keptFor(password.id)).to.equal(undefined);
    const off = await sessionThrough('off');
    expect(await logout.keptFor(off.id)).to.equal(undefined);
  });

  it('leaves with the hint, the way back and a fresh state that keeps the service; the state comes back once', async () => {
    const tgt = await sessionThrough('on');
    const kept = (await logout.keptFor(tgt.id))!;
    const url = new URL((await logout.leave(kept, 'https://app.example.org/bye', RETURN_URL))!);
    expect(url.searchParams.get('hint')).to.equal('the.id.token');
    expect(url.searchParams.get('back')).to.equal(RETURN_URL);
    const state = url.searchParams.get('state')!;
    expect(state).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(events.ofType('delegation.logout')).to.deep.equal([{ type: 'delegation.logout', provider: 'on' }]);
    expect(await logout.back(state)).to.deep.equal({ provider: 'on', service: 'https://app.example.org/bye' });
    expect(await logout.back(state)).to.equal(undefined);
    // Without a service to go on to, none is kept.
    const again = new URL((await logout.leave(kept, undefined, RETURN_URL))!);
    expect(await logout.back(again.searchParams.get('state')!)).to.deep.equal({ provider: 'on' });
  });

  it('an upstream that fails at logout: no URL, reported, never thrown (tessera’s logout is done by then)', async () => {
    const tgt = await sessionThrough('down');
    const kept = (await logout.keptFor(tgt.id))!;
    expect(await logout.leave(kept, undefined, RETURN_URL)).to.equal(undefined);
    expect(events.ofType<DelegationLogoutFailedEvent>('delegation.logout.failed')).to.deep.equal([{ type: 'delegation.logout.failed', provider: 'down', detail: 'fetch failed' }]);
  });

  it('a store that fails at logout: nothing kept answered, reported, never thrown', async () => {
    const tgt = await sessionThrough('on');
    const broken = new UpstreamLogout(new Map(), { session: () => Promise.reject(new Error('store down')), takeLogout: () => Promise.reject(new Error('store down')) } as unknown as DelegationRecords, clock, events, 600);
    expect(await broken.keptFor(tgt.id)).to.equal(undefined);
    expect(await broken.back('a-state')).to.equal(undefined);
    expect(events.ofType<DelegationLogoutFailedEvent>('delegation.logout.failed').map(({ detail }) => detail)).to.deep.equal(['store down', 'store down']);
  });
});
