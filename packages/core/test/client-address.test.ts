import { expect } from 'chai';
import { clientAddressGroup } from '@tessera/core';

// docs/protocol.md §5 — every limit per client counts one host once: an IPv6 client by its /64 network
describe('clientAddressGroup: what a client host is counted by', () => {
  it('counts an IPv6 address by its /64 network, written compressed in lower case', () => {
    expect(clientAddressGroup('2001:db8:0:7::1')).to.equal('2001:db8:0:7::/64');
    expect(clientAddressGroup('2001:db8:0:7:ffff:ffff:ffff:ffff')).to.equal('2001:db8:0:7::/64');
    expect(clientAddressGroup('2001:db8:1:2:3:4:5:6')).to.equal('2001:db8:1:2::/64');
    expect(clientAddressGroup('2001:db8:0:8::1')).to.equal('2001:db8:0:8::/64');
  });

  it('gives one group whatever the writing: compressed or not, leading zeros, upper case, a zone id', () => {
    const writings = [
      '2001:db8::1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:db8:0:0:abcd::',
      '2001:DB8::ABCD:1',
      '2001:Db8:0::ffff:1',
      '2001:db8::1%eth0',
      '2001:db8::1%eth0.42',
      '2001:db8::1%25',
    ];
    expect(new Set(writings.map(clientAddressGroup))).to.deep.equal(new Set(['2001:db8::/64']));
    expect(clientAddressGroup('FE80::1%en-1')).to.equal('fe80::/64');
  });

  it('counts an IPv4 address by itself', () => {
    expect(clientAddressGroup('203.0.113.9')).to.equal('203.0.113.9');
    expect(clientAddressGroup('203.0.113.10')).to.equal('203.0.113.10');
  });

  it('counts an IPv4-mapped IPv6 address by its IPv4 address, the host a dual-stack socket reports it for', () => {
    expect(clientAddressGroup('::ffff:203.0.113.9')).to.equal('203.0.113.9');
    expect(clientAddressGroup('::FFFF:203.0.113.9')).to.equal('203.0.113.9');
    expect(clientAddressGroup('0:0:0:0:0:ffff:cb00:7109')).to.equal('203.0.113.9');
    // Two mapped addresses of one /64 (::ffff:0:0/96) are two hosts, not one network.
    expect(clientAddressGroup('::ffff:203.0.113.10')).to.not.equal(clientAddressGroup('::ffff:203.0.113.9'));
  });

  it('leaves anything that is no address as it is', () => {
    for (const notAnAddress of ['', 'unknown', '2001:db8::1::2', '2001:db8::g', '203.0.113.256']) expect(clientAddressGroup(notAnAddress)).to.equal(notAnAddress);
  });
});
