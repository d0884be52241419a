import { expect } from 'chai';
import { TicketIdGenerator, cryptoRandomSource, sanitizeNodeName } from '@tessera/core';

// docs/protocol.md §1 — ticket id format
describe('ticket ids (docs/protocol.md §1)', () => {
  const ids = new TicketIdGenerator(cryptoRandomSource, 'cas1');

  it('TGT ids are TGT-<n>-<≥32 random bytes>-<node> with only A-Za-z0-9-', () => {
    const id = ids.next('TGT');
    expect(id).to.match(/^TGT-\d+-[A-Za-z0-9-]{43}-cas1$/);
  });

  it('ST ids are ST-<n>-<≥16 random bytes>-<node>, at most 64 characters', () => {
    const id = ids.next('ST');
    expect(id).to.match(/^ST-\d+-[A-Za-z0-9-]{22}-cas1$/);
    expect(id.length).to.be.at.most(64);
  });

  it('never repeats in 100 000 ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(ids.next('ST'));
    expect(seen.size).to.equal(100_000);
  });

  it('two generators (restarts, other nodes) with the same counter still differ', () => {
    const a = new TicketIdGenerator(cryptoRandomSource, 'n').next('ST');
    const b = new TicketIdGenerator(cryptoRandomSource, 'n').next('ST');
    expect(a.startsWith('ST-1-')).to.equal(true);
    expect(b.startsWith('ST-1-')).to.equal(true);
    expect(a).to.not.equal(b);
  });

  it('keeps node names short and within the id alphabet', () => {
    expect(sanitizeNodeName('cas_node.example.org')).to.equal('casnodeexampleor');
    expect(new TicketIdGenerator(cryptoRandomSource, '').next('ST')).to.match(/^ST-1-[A-Za-z0-9-]{22}$/);
  });
});
