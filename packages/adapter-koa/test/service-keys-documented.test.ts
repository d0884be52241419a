import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ACCESS_STRATEGY_CLASSES } from '../src/services/codecs/access-strategy-codec.js';
import { ACCESS_STRATEGY_KEYS, PROPERTY_KEYS, proxyPolicyKeys, SERVICE_KEYS, type KeyRules } from '../src/services/codecs/cas-service-keys.js';
import { TICKET_EXPIRATION_POLICIES } from '../src/services/codecs/ticket-expiration-codec.js';

const PAGE = 'docs/services.md';
const page = readFileSync(fileURLToPath(new URL(`../../../${PAGE}`, import.meta.url)), 'utf8');

/** Every key the rules know: read, accepted and dropped, or refused as not supported. */
function keysOf(rules: KeyRules): string[] {
  return [...rules.read, ...(rules.descriptive ?? []), ...Object.keys(rules.unsupported ?? {})];
}

/** The keys of `rules` the page names nowhere, as `key` or as `prefix.key`. */
function undocumented(rules: KeyRules, prefix: string): string[] {
  return keysOf(rules).filter((key) => !page.includes(`\`${key}\``) && !page.includes(`\`${prefix}.${key}\``));
}

// Every key of an Apereo CAS service definition the codec knows says in docs/services.md what tessera does with it
// (the keys of each policy class, its codec part's, and of each module's service types and sections are checked for every declaration in cli-server's service-policies test).
describe(`every service definition key the codec knows is in ${PAGE}`, () => {
  it('the keys of a service', () => {
    expect(undocumented(SERVICE_KEYS, '')).to.deep.equal([]);
  });

  it('the keys of its access strategy, of each class it reads', () => {
    expect(undocumented(ACCESS_STRATEGY_KEYS, 'accessStrategy')).to.deep.equal([]);
    for (const [name, rules] of Object.entries(ACCESS_STRATEGY_CLASSES)) {
      expect(page, name).to.include(`\`${name}\``);
      expect(undocumented(rules, 'accessStrategy'), name).to.deep.equal([]);
    }
  });

  it('the proxy policies and their keys, and the keys of a property', () => {
    for (const policy of ['RegexMatchingRegisteredServiceProxyPolicy', 'RefuseRegisteredServiceProxyPolicy']) {
      expect(page, policy).to.include(`\`${policy}\``);
      expect(undocumented(proxyPolicyKeys(policy)!, 'proxyPolicy'), policy).to.deep.equal([]);
    }
    expect(undocumented(PROPERTY_KEYS, 'properties')).to.deep.equal([]);
  });

  it('the ticket expiration policies, their classes and keys', () => {
    for (const [key, { className, keys }] of Object.entries(TICKET_EXPIRATION_POLICIES)) {
      expect(page, className).to.include(`\`${className}\``);
      expect(undocumented(keys, key), key).to.deep.equal([]);
    }
  });

  it('the check finds a key the page does not name', () => {
    expect(undocumented({ read: ['serviceId', 'noSuchKeyAnywhere'] }, '')).to.deep.equal(['noSuchKeyAnywhere']);
  });
});
