import { expect } from 'chai';
import { TicketIdGenerator, cryptoRandomSource, sanitizeNodeName, sessionTag, sessionTagOfGrantedTicket } from '@tessera/core';

// docs/protocol.md §1 — ticket id format
describe('ticket ids (docs/protocol.md §1)', () => {
  const ids = new TicketIdGenerator(cryptoRandomSource, 'cas1');

  it('TGT ids are TGT-<n>-<≥32 random bytes>-<node> with only A-Za-z0-9-', () => {
    const id = ids.next('TGT');
    expect(id).to.match(/^TGT-\d+-[A-Za-z0-9-]{43}-cas1$/);
  });

  it('ST ids are ST-<n>-<session tag><≥16 random bytes>-<node>, at most 64 characters', () => {
    const id = ids.next('ST', ids.next('TGT'));
    expect(id).to.match(/^ST-\d+-[A-Za-z0-9-]{4}[A-Za-z0-9-]{22}-cas1$/);
    expect(id.length).to.be.at.most(64);
  });

  it('PGT ids are PGT-<n>-<session tag><≥32 random bytes>-<node>; PT ids PT-<n>-<session tag><≥16 random bytes>-<node>', () => {
    const tgt = ids.next('TGT');
    expect(ids.next('PGT', tgt)).to.match(/^PGT-\d+-[A-Za-z0-9-]{4}[A-Za-z0-9-]{43}-cas1$/);
    const pt = ids.next('PT', tgt);
    expect(pt).to.match(/^PT-\d+-[A-Za-z0-9-]{4}[A-Za-z0-9-]{22}-cas1$/);
    expect(pt.length).to.be.at.most(64);
  });

  it('PGT IOUs are PGTIOU-<n>-<≥16 random bytes>-<node>, the shape phpCAS checks', () => {
    const iou = ids.nextIou();
    expect(iou).to.match(/^PGTIOU-\d+-[A-Za-z0-9-]{22}-cas1$/);
    expect(iou).to.match(/^PGTIOU-[.\-\w]+$/);
  });

  it("every ticket granted under a TGT (ST, PGT, PT) carries its session tag, a hash that tells nothing of the TGT id", () => {
    const tgt = ids.next('TGT');
    const granted = Array.from({ length: 20 }, (_, i) => ids.next((['ST', 'PGT', 'PT'] as const)[i % 3]!, tgt));
    const tags = new Set(granted.map(sessionTagOfGrantedTicket));
    expect([...tags]).to.deep.equal([sessionTag(tgt)]);
    expect(sessionTag(tgt)).to.match(/^[A-Za-z0-9-]{4}$/);
    expect(sessionTag(ids.next('TGT'))).to.not.equal(sessionTag(tgt));
    for (const notGranted of [tgt, ids.nextIou(), 'ST-x-abcd', 'ST-1-ab', 'PGTIOU-1-abcdefgh', '']) expect(sessionTagOfGrantedTicket(notGranted), notGranted).to.equal(undefined);
  });

  it('never repeats in 100 000 ids', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(ids.next('ST', 'TGT-1-same-session'));
    expect(seen.size).to.equal(100_000);
  });

  it('two generators (restarts, other nodes) with the same counter still differ', () => {
    const a = new TicketIdGenerator(cryptoRandomSource, 'n').next('ST', 'TGT-1-x');
    const b = new TicketIdGenerator(cryptoRandomSource, 'n').next('ST', 'TGT-1-x');
    expect(a.startsWith('ST-1-')).to.equal(true);
    expect(b.startsWith('ST-1-')).to.equal(true);
    expect(a).to.not.equal(b);
  });

  it('keeps node names short and within the id alphabet', () => {
    expect(sanitizeNodeName('cas_node.example.org')).to.equal('casnodeexampleor');
    expect(new TicketIdGenerator(cryptoRandomSource, '').next('ST', 'TGT-1-x')).to.match(/^ST-1-[A-Za-z0-9-]{26}$/);
  });
});
