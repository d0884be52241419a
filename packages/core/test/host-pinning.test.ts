import { expect } from 'chai';
import { hostPinning, servicePattern, unpinnedHostWarnings, type HostPinning } from '../src/index.js';

/** URLs on hosts other than a.b that a pattern naming a.b must not match. */
const OTHER_HOSTS = ['https://a.b.evil.example/', 'https://a.b@evil.example/', 'https://a.b:x@evil.example/', 'https://aXb/', 'https://evil.example/a.b/'];

describe('the host of a URL pattern: pinned or not', () => {
  const pinned = [
    '^https://a\\.b/.*',
    '^https://a\\.b(:\\d+)?/.*',
    '^https://a\\.b:8443/.*',
    '^https://a\\.b$',
    '^https://a\\.b(/.*)?$',
    '^https://a\\.b\\?.*',
    '^https://a\\.b#.*',
    // Matched as a whole: without anything after the host, only https://a.b itself matches.
    '^https://a\\.b',
    'https://a\\.b/home',
    '^https?://a\\.b/.*',
    '^(https|http)://a\\.b/.*',
    '^https:\\/\\/a\\.b\\/.*',
    '^HTTPS://A\\.B/.*',
    '^https://(www\\.)?a\\.b/.*',
    '^https://(a\\.b|c\\.d)/.*',
    '^https://a\\.b/.*|^https://c\\.d(:\\d+)?/.*',
    '^https://[a-z0-9-]+\\.a\\.b/.*',
    '^https://([a-z0-9-]+\\.)*a\\.b/.*',
    '^https://a\\.b(?=/)/.*',
    '^https://a\\.b[/?].*',
  ];
  for (const pattern of pinned) {
    it(`pinned: ${pattern}`, () => {
      expect(hostPinning(pattern)).to.equal('pinned');
      const matcher = servicePattern(pattern)!;
      for (const url of OTHER_HOSTS) expect(matcher.test(url), url).to.equal(false);
    });
  }

  const notPinned: [string, HostPinning, string][] = [
    ['^https://a\\.b.*', 'open-end', 'https://a.b.evil.example/'],
    ['^https://a\\.b.+', 'open-end', 'https://a.b@evil.example/'],
    ['^https://intranet\\.example\\.org.*', 'open-end', 'https://intranet.example.org@evil.example/'],
    ['^https://a\\.b[^/]*/.*', 'open-end', 'https://a.b.evil.example/'],
    ['^https://a\\.b\\S*', 'open-end', 'https://a.b.evil.example/'],
    // A colon not followed by a port starts a user part: the host comes after the @.
    ['^https://a\\.b:.*', 'open-end', 'https://a.b:x@evil.example/'],
    ['^https://a\\.b(:.*)?/.*', 'open-end', 'https://a.b:x@evil.example/'],
    ['^https://a\\.b/.*|^https://c\\.d.*', 'open-end', 'https://c.d.evil.example/'],
    ['^https://a.b/.*', 'unescaped-dot', 'https://aXb/'],
    ['https://a.b/home', 'unescaped-dot', 'https://a-b/home'],
    ['^https://(a.b|c\\.d)/.*', 'unescaped-dot', 'https://aXb/'],
    ['^https?://.*', 'any-host', 'https://evil.example/'],
    ['^https://.*\\.a\\.b/.*', 'any-host', 'https://evil.example/x.a.b/'],
    ['^https://[a-z.]+/.*', 'any-host', 'https://evil.example/'],
    ['^https://[a-z0-9-]+\\.b/.*', 'any-host', 'https://evil.b/'],
    ['^.*://a\\.b/.*', 'any-host', 'https://evil.example/x://a.b/'],
    ['.*', 'any-host', 'https://evil.example/'],
    ['^https://(.*)a\\.b/.*', 'any-host', 'https://evil.example/a.b/'],
    // https:///evil.example/ is evil.example's: parsers skip the slash where the host would be.
    ['^https://(a\\.b)?/.*', 'any-host', 'https:///evil.example/'],
  ];
  for (const [pattern, verdict, matchedElsewhere] of notPinned) {
    it(`${verdict}: ${pattern}`, () => {
      expect(hostPinning(pattern)).to.equal(verdict);
      expect(servicePattern(pattern)!.test(matchedElsewhere), matchedElsewhere).to.equal(true);
    });
  }

  it('an invalid pattern matches nothing: nothing to warn about (the codecs refuse it)', () => {
    expect(hostPinning('^https://a\\.b/(')).to.equal('pinned');
  });

  it('a pattern with more alternatives than it looks into gets a warning', () => {
    const many = `^https://${'(a|b)'.repeat(10)}\\.c\\.d/.*`;
    expect(hostPinning(many)).to.equal('any-host');
  });
});

describe('warnings about unpinned hosts in a service definition', () => {
  const service = { id: 3, name: 'Intranet', serviceId: '^https://intranet\\.example\\.org.*' };

  it('name the service and its pattern, say its host is not pinned and how to pin it', () => {
    expect(unpinnedHostWarnings(service)).to.deep.equal([
      'service "Intranet" (id 3): its host is not pinned: serviceId ^https://intranet\\.example\\.org.* does not end the host, so it also matches URLs of other hosts (<host>.evil.example, <host>@evil.example); end the host with /, :port, ? or $',
    ]);
    expect(unpinnedHostWarnings({ name: 'Wiki', serviceId: '^https://wiki.example.org/.*' })).to.deep.equal([
      'service "Wiki": its host is not pinned: serviceId ^https://wiki.example.org/.* has an unescaped . in its host, which matches any character, so it also matches URLs of other hosts; write each dot of the host as \\.',
    ]);
  });

  it('cover the proxy policy pattern, to which proxy-granting tickets are sent, unless it is the serviceId or an exact URL', () => {
    const pinnedService = { ...service, serviceId: '^https://intranet\\.example\\.org/.*' };
    const regex = { kind: 'regex', useServiceId: false, exactMatch: false } as const;
    expect(unpinnedHostWarnings({ ...pinnedService, proxyPolicy: { ...regex, pattern: '^https://.*' } })).to.deep.equal([
      'service "Intranet" (id 3): the host of its proxy callbacks is not pinned: proxyPolicy.pattern ^https://.* matches URLs of any host; write the host out (its subdomains as [a-z0-9-]+\\.example\\.org) and end it with /, :port, ? or $',
    ]);
    expect(unpinnedHostWarnings({ ...pinnedService, proxyPolicy: { ...regex, pattern: '^https://intranet\\.example\\.org/pgt$' } })).to.deep.equal([]);
    expect(unpinnedHostWarnings({ ...pinnedService, proxyPolicy: { ...regex, pattern: 'https://intranet.example.org/pgt', exactMatch: true } })).to.deep.equal([]);
    expect(unpinnedHostWarnings({ ...pinnedService, proxyPolicy: { kind: 'refuse' } })).to.deep.equal([]);
  });

  it('none for a pinned service', () => {
    expect(unpinnedHostWarnings({ ...service, serviceId: '^https://intranet\\.example\\.org(:\\d+)?/.*' })).to.deep.equal([]);
  });
});
