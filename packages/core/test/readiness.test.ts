import { expect } from 'chai';
import { CHECK_FAILED, ReadinessProbe, StoreUnavailableError, noAnswerWithin, type ReadinessCheck } from '@tessera/core';
import { RecordingEvents } from './fakes.js';

const up = (name: string): ReadinessCheck => ({ name, check: () => Promise.resolve() });
const failing = (name: string, error: Error): ReadinessCheck => ({ name, check: () => Promise.reject(error) });
const hung = (name: string): ReadinessCheck => ({ name, check: () => new Promise<void>(() => undefined) });

// docs/protocol.md §10.1 — GET /health/ready: stores reachable, or the failing component named
describe('readiness probe (docs/protocol.md §10.1)', () => {
  it('is ready when every component answers, naming each one up', async () => {
    const report = await new ReadinessProbe([up('storage'), up('ldap')], 1000, new RecordingEvents()).probe();
    expect(report).to.deep.equal({ ready: true, components: { storage: 'up', ldap: 'up' }, failures: {} });
  });

  it('names the failing component with a public reason; the error itself goes only to the event', async () => {
    const events = new RecordingEvents();
    const cause = new StoreUnavailableError('cannot reach db1.internal:27017');
    const report = await new ReadinessProbe([failing('storage', cause), up('ldap')], 1000, events).probe();
    expect(report).to.deep.equal({ ready: false, components: { storage: 'down', ldap: 'up' }, failures: { storage: CHECK_FAILED } });
    expect(JSON.stringify(report)).not.to.include('db1.internal');
    expect(events.ofType('readiness.failed')).to.deep.equal([{ type: 'readiness.failed', component: 'storage', reason: CHECK_FAILED, error: cause }]);
  });

  it('a check that throws instead of rejecting counts as down, not as a crash', async () => {
    const throwing: ReadinessCheck = {
      name: 'ldap',
      check: () => {
        throw new Error('synchronous');
      },
    };
    const report = await new ReadinessProbe([throwing], 1000, new RecordingEvents()).probe();
    expect(report.components).to.deep.equal({ ldap: 'down' });
  });

  it('a hung dependency is down once the deadline passes, while the others are still reported', async () => {
    const events = new RecordingEvents();
    const started = performance.now();
    const report = await new ReadinessProbe([hung('ldap'), up('storage')], 30, events).probe();
    expect(performance.now() - started).to.be.below(1000);
    expect(report).to.deep.equal({ ready: false, components: { ldap: 'down', storage: 'up' }, failures: { ldap: noAnswerWithin(30) } });
    expect(events.ofType('readiness.failed').map(({ component, reason }) => [component, reason])).to.deep.equal([['ldap', 'no answer within 30 ms']]);
  });

  it('runs the checks concurrently, and probes arriving during a run share it', async () => {
    let runs = 0;
    const releases: (() => void)[] = [];
    const gated = (name: string): ReadinessCheck => ({
      name,
      check: () => {
        runs += 1;
        return new Promise<void>((resolve) => releases.push(resolve));
      },
    });
    const probe = new ReadinessProbe([gated('storage'), gated('ldap')], 5000, new RecordingEvents());
    const first = probe.probe();
    const second = probe.probe();
    await Promise.resolve();
    // Both checks started before either answered: concurrent, not one after the other.
    expect(runs).to.equal(2);
    releases.forEach((release) => release());
    expect(await first).to.equal(await second);
    expect(runs).to.equal(2);
    const third = probe.probe();
    await Promise.resolve();
    expect(runs).to.equal(4);
    releases.slice(2).forEach((release) => release());
    expect((await third).ready).to.equal(true);
  });
});
