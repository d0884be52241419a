import { expect } from 'chai';
import { durationSeconds } from '@tessera/core';
import { parseServiceDefinition, refusalOf, toCasServiceJson } from './built-in-codec.js';

const CAS = 'org.apereo.cas.services';
const BASE = { '@class': `${CAS}.CasRegisteredService`, id: 3, name: 'Payroll', serviceId: '^https://payroll\\.example\\.org/.*' };
const TGT = `${CAS}.DefaultRegisteredServiceTicketGrantingTicketExpirationPolicy`;
const ST = `${CAS}.DefaultRegisteredServiceServiceTicketExpirationPolicy`;
const PT = `${CAS}.DefaultRegisteredServiceProxyTicketExpirationPolicy`;
const PGT = `${CAS}.DefaultRegisteredServiceProxyGrantingTicketExpirationPolicy`;

const problems = (json: unknown): string[] => refusalOf(() => parseServiceDefinition(json));

describe('per-service ticket lifetimes in Apereo service JSON', () => {
  it('reads the four policies as Apereo writes them, and writes them back so they load unchanged', () => {
    const json = {
      ...BASE,
      ticketGrantingTicketExpirationPolicy: { '@class': TGT, maxTimeToLiveInSeconds: 4 },
      serviceTicketExpirationPolicy: { '@class': ST, numberOfUses: 1, timeToLive: 'PT30S' },
      proxyTicketExpirationPolicy: { '@class': PT, numberOfUses: '3', timeToLive: 20 },
      proxyGrantingTicketExpirationPolicy: { '@class': PGT, maxTimeToLiveInSeconds: '600' },
    };
    const parsed = parseServiceDefinition(json);
    expect(parsed).to.deep.include({
      ticketGrantingTicketExpiration: { maxTimeToLiveInSeconds: 4 },
      serviceTicketExpiration: { numberOfUses: 1, timeToLive: 'PT30S' },
      // Jackson reads a number written where a String goes as its text, and a quoted long as the long.
      proxyTicketExpiration: { numberOfUses: 3, timeToLive: '20' },
      proxyGrantingTicketExpiration: { maxTimeToLiveInSeconds: 600 },
    });
    const rendered = toCasServiceJson({ ...parsed, id: 3 });
    expect(rendered['serviceTicketExpirationPolicy']).to.deep.equal({ '@class': ST, numberOfUses: 1, timeToLive: 'PT30S' });
    expect(rendered['ticketGrantingTicketExpirationPolicy']).to.deep.equal({ '@class': TGT, maxTimeToLiveInSeconds: 4 });
    expect(parseServiceDefinition(rendered)).to.deep.equal({ ...parsed, id: 3 });
  });

  it('keeps a policy that has no effect in Apereo as written (no uses, no time to live, a TGT lifetime of 0), and the @class may be left out', () => {
    const parsed = parseServiceDefinition({
      ...BASE,
      ticketGrantingTicketExpirationPolicy: { maxTimeToLiveInSeconds: 0, userAgents: { '@class': 'java.util.HashMap' }, ipAddresses: {} },
      serviceTicketExpirationPolicy: { '@class': ST, numberOfUses: 0, timeToLive: 'not read without uses' },
      proxyTicketExpirationPolicy: { '@class': PT, numberOfUses: 5 },
    });
    expect(parsed.ticketGrantingTicketExpiration).to.deep.equal({ maxTimeToLiveInSeconds: 0 });
    expect(parsed.serviceTicketExpiration).to.deep.equal({ numberOfUses: 0, timeToLive: 'not read without uses' });
    expect(parsed.proxyTicketExpiration).to.deep.equal({ numberOfUses: 5 });
    expect(parseServiceDefinition(toCasServiceJson({ ...parsed, id: 3 }))).to.deep.equal({ ...parsed, id: 3 });
  });

  it('names every problem of the four policies in one run, each saying what to write', () => {
    expect(
      problems({
        ...BASE,
        ticketGrantingTicketExpirationPolicy: { '@class': TGT, maxTimeToLiveInSeconds: 'an hour', timeToKillInSeconds: 30 },
        serviceTicketExpirationPolicy: { '@class': ST, numberOfUses: 'thrice', timeToLive: '10' },
        proxyTicketExpirationPolicy: { '@class': PT, numberOfUses: 1, timeToLive: 'ten seconds' },
        proxyGrantingTicketExpirationPolicy: { '@class': PGT, maxTimeToLiveInSeconds: 0 },
      }),
    ).to.deep.equal([
      'ticketGrantingTicketExpirationPolicy.timeToKillInSeconds: unknown key; did you mean maxTimeToLiveInSeconds?',
      'serviceTicketExpirationPolicy.numberOfUses: must be a whole number',
      'proxyTicketExpirationPolicy.timeToLive: must be a number of seconds ("30") or an ISO-8601 duration ("PT30S")',
      'proxyGrantingTicketExpirationPolicy.maxTimeToLiveInSeconds: must be more than 0: CAS issues proxy-granting tickets that are dead at once with 0 or less; leave the policy out for ones that live as long as their login session',
    ]);
    expect(problems({ ...BASE, ticketGrantingTicketExpirationPolicy: { '@class': TGT, maxTimeToLiveInSeconds: 'an hour' } })).to.deep.equal([
      'ticketGrantingTicketExpirationPolicy.maxTimeToLiveInSeconds: must be a whole number of seconds',
    ]);
    expect(problems({ ...BASE, serviceTicketExpirationPolicy: { '@class': ST, numberOfUses: 1, timeToLive: 'PT0.5S' } })).to.deep.equal([
      'serviceTicketExpirationPolicy.timeToLive: must be at least 1 second: CAS grants no ticket for a time to live of "PT0.5S"',
    ]);
    expect(problems({ ...BASE, serviceTicketExpirationPolicy: { '@class': `${CAS}.GroovyRegisteredServiceServiceTicketExpirationPolicy` } })).to.deep.equal([
      'serviceTicketExpirationPolicy.@class: must be DefaultRegisteredServiceServiceTicketExpirationPolicy (org.apereo.cas.services)',
    ]);
    expect(problems({ ...BASE, proxyGrantingTicketExpirationPolicy: 600 })).to.deep.equal(['proxyGrantingTicketExpirationPolicy.(policy): must be an object']);
  });

  it('reads a time to live as Apereo does: whole seconds, or an ISO-8601 duration in whole seconds', () => {
    expect(['30', '+30', 'PT30S', 'pt30s', 'PT1M', 'PT1H30M', 'P1D', 'PT1.9S', 'PT-1S', '-PT10S', '0'].map(durationSeconds)).to.deep.equal([30, 30, 30, 30, 60, 5400, 86_400, 1, -1, -10, 0]);
    for (const bad of ['', ' 30', '1.5', '30s', 'P', 'PT', 'P1W', 'PT1S ', 'never']) expect(durationSeconds(bad), bad).to.be.NaN;
  });
});
