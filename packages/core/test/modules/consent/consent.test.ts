import { expect } from 'chai';
import { builtInServicePolicies, MapRecordStores } from '@tessera/testkit';
import { cryptoRandomSource, defaultTicketLifetimes, RelyingPartyAccess, RETURN_ALL_ATTRIBUTES, SecondFactorRequirement, type Authentication, type ConsentPolicy, type RelyingPartyResolver, type ReturnAllAttributes } from '../../../src/index.js';
import { AttributeConsent, ConsentDecisions, type ConsentSettings } from '../../../src/modules/consent/index.js';
import { FixedClock, ListServiceRegistry, RecordingEvents, service } from '../../fakes.js';

const URL = 'https://app.example.org/home';
const SETTINGS: ConsentSettings = { active: true, reminder: 30, reminderTimeUnit: 'DAYS', excludedAttributes: [] };
const DAY = 86_400_000;

function authentication(attributes: Record<string, readonly string[]>): Authentication {
  return { principal: { id: 'casuser', attributes }, authenticatedAt: 0, credentials: [], successes: {}, attributes: {} };
}

const ATTRIBUTES = { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'], uid: ['casuser'] };

describe('AttributeConsent (the consent module, as CAS’s consent engine)', () => {
  let clock: FixedClock;
  let events: RecordingEvents;
  // What a service receives, as the relying-party path answers it.
  const parties = () => new RelyingPartyAccess(new ListServiceRegistry([]), clock, defaultTicketLifetimes, builtInServicePolicies(), new SecondFactorRequirement());
  const consent = (settings: Partial<ConsentSettings> = {}) => new AttributeConsent(new ConsentDecisions(new MapRecordStores(clock), cryptoRandomSource), parties(), clock, events, { ...SETTINGS, ...settings });
  const releasingAll = (consentPolicy?: ConsentPolicy) => {
    const attributeRelease: ReturnAllAttributes = { type: RETURN_ALL_ATTRIBUTES, ...(consentPolicy && { consentPolicy }) };
    return service({ attributeRelease });
  };
  const request = (consentPolicy?: ConsentPolicy, attributes: Record<string, readonly string[]> = ATTRIBUTES) => ({ authentication: authentication(attributes), service: releasingAll(consentPolicy), url: URL });

  beforeEach(() => {
    clock = new FixedClock();
    events = new RecordingEvents();
  });

  it('asks by the policy’s status, else by `active`; never for an excluded service URL or with nothing to ask about', async () => {
    expect(await consent().required(request()), 'no policy: as active says').to.equal(true);
    expect(await consent({ active: false }).required(request()), 'no policy, not active').to.equal(false);
    expect(await consent({ active: false }).required(request({ status: 'TRUE' }))).to.equal(true);
    expect(await consent().required(request({ status: 'FALSE' }))).to.equal(false);
    expect(await consent().required(request({ status: 'TRUE', excludedServices: ['https://app\\.example\\.org/.*'] }))).to.equal(false);
    expect(await consent().required(request({ status: 'TRUE', excludedServices: ['https://app\\.example\\.org'] })), 'patterns match the whole URL').to.equal(true);
    expect(await consent().required(request(undefined, {})), 'no attribute released').to.equal(false);
  });

  it('lists the released attributes less those the policy and the settings leave out', async () => {
    expect(await consent().consentable(request({ status: 'TRUE', includeOnlyAttributes: ['mail', 'memberOf'], excludedAttributes: ['memberOf'] }))).to.deep.equal({ mail: ['casuser@example.org'] });
    expect(await consent({ excludedAttributes: ['uid'] }).consentable(request())).to.deep.equal({ mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] });
  });

  it('a decision counts until its reminder, unless ALWAYS, or the names (ATTRIBUTE_NAME) or values (ATTRIBUTE_VALUE) change; each decision an event without values', async () => {
    const engine = consent();
    await engine.give(request(), 'ATTRIBUTE_NAME');
    expect(await engine.required(request())).to.equal(false);
    expect(await engine.required(request(undefined, { ...ATTRIBUTES, memberOf: ['staff'] })), 'a value changed, names kept').to.equal(false);
    expect(await engine.required(request(undefined, { mail: ATTRIBUTES.mail })), 'a name gone').to.equal(true);
    await engine.give(request(), 'ATTRIBUTE_VALUE');
    expect(await engine.required(request())).to.equal(false);
    expect(await engine.required(request(undefined, { ...ATTRIBUTES, memberOf: ['staff'] }))).to.equal(true);
    clock.advance(29 * DAY);
    expect(await engine.required(request())).to.equal(false);
    clock.advance(DAY);
    expect(await engine.required(request()), 'the reminder is due').to.equal(true);
    await engine.give(request(), 'ALWAYS');
    expect(await engine.required(request())).to.equal(true);
    await engine.deny(request());
    expect(events.events.map((event) => event.type)).to.deep.equal(['consent.given', 'consent.given', 'consent.given', 'consent.denied']);
    expect(JSON.stringify(events.events)).to.not.include('casuser@example.org');
  });

  it("a decision is kept for the name the relying party's policies know it by: a module's per-login URLs standing for one SP share it", async () => {
    const sp = releasingAll();
    const callback = (login: string) => `https://sso.example.org/cas/idp/profile/SAML2/Callback/${login}`;
    const resolver: RelyingPartyResolver = { resolve: (url) => Promise.resolve(url.startsWith(callback('')) ? { service: sp, shownUrl: 'https://sp.example.org/acs', policyUrl: 'https://sp.example.org/sp' } : undefined) };
    const throughModule = new RelyingPartyAccess(new ListServiceRegistry([]), clock, defaultTicketLifetimes, builtInServicePolicies(), new SecondFactorRequirement(), [resolver]);
    const engine = new AttributeConsent(new ConsentDecisions(new MapRecordStores(clock), cryptoRandomSource), throughModule, clock, events, SETTINGS);
    const ticket = (login: string) => ({ authentication: authentication(ATTRIBUTES), service: sp, url: callback(login) });
    expect(await engine.required(ticket('first'))).to.equal(true);
    await engine.give(ticket('first'), 'ATTRIBUTE_NAME');
    expect(await engine.required(ticket('second')), 'the next login of the same SP').to.equal(false);
    await engine.deny(ticket('third'));
    expect(events.events.map((event) => (event as { service?: string }).service)).to.deep.equal(['https://sp.example.org/sp', 'https://sp.example.org/sp']);
  });
});
