import { expect } from 'chai';
import { RateLimitedError } from '@tessera/core';
import { RequestRateLimit, type RequestRateStore } from '@tessera/core/modules/throttle';
import { FixedClock } from '../../fakes.js';

/** Answers each take with the next wait of a script, recording what it was asked. */
class ScriptedRateStore implements RequestRateStore {
  readonly calls: unknown[][] = [];
  constructor(private readonly waits: number[]) {}
  take(...args: [string, number, number, number]): Promise<number> {
    this.calls.push(args);
    return Promise.resolve(this.waits.shift() ?? 0);
  }
}

describe('request-rate limit (docs/protocol.md §5)', () => {
  it('asks the bucket of the client IP with the configured burst and rate', async () => {
    const clock = new FixedClock();
    const store = new ScriptedRateStore([0]);
    await new RequestRateLimit(store, clock, { burst: 60, requestsPerSecond: 2 }).admit('203.0.113.9');
    expect(store.calls).to.deep.equal([['203.0.113.9', clock.now(), 60, 2]]);
  });

  it("keeps a scoped limit's buckets apart: its keys name the scope before the address", async () => {
    const clock = new FixedClock();
    const store = new ScriptedRateStore([0]);
    await new RequestRateLimit(store, clock, { burst: 5, requestsPerSecond: 1 }, 'login-form').admit('203.0.113.9');
    expect(store.calls).to.deep.equal([['login-form 203.0.113.9', clock.now(), 5, 1]]);
  });

  it('asks one bucket for every address of an IPv6 /64, another for another /64, and an IPv4-mapped address its IPv4 bucket', async () => {
    const clock = new FixedClock();
    const store = new ScriptedRateStore([]);
    const limit = new RequestRateLimit(store, clock, { burst: 5, requestsPerSecond: 1 }, 'login-form');
    for (const address of ['2001:db8:0:7::1', '2001:DB8:0:7:ab:cd:ef:1', '2001:db8:0:8::1', '::ffff:203.0.113.9']) await limit.admit(address);
    expect(store.calls.map(([key]) => key)).to.deep.equal(['login-form 2001:db8:0:7::/64', 'login-form 2001:db8:0:7::/64', 'login-form 2001:db8:0:8::/64', 'login-form 203.0.113.9']);
  });

  it('refuses with the wait in whole seconds, rounded up and at least one', async () => {
    const limit = new RequestRateLimit(new ScriptedRateStore([1, 1500, 3000]), new FixedClock(), { burst: 1, requestsPerSecond: 1 });
    const waits = [];
    for (let i = 0; i < 3; i++) {
      const error: unknown = await limit.admit('ip').catch((thrown: unknown) => thrown);
      expect(error).to.be.instanceOf(RateLimitedError);
      waits.push((error as RateLimitedError).retryAfterSeconds);
    }
    expect(waits).to.deep.equal([1, 2, 3]);
  });
});
