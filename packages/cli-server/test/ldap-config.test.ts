import { expect } from 'chai';
import { buildContainer, ConfigurationError, createLogger, parseConfig, KEYS } from '@tessera/cli-server';
import { configProblems as problems } from './config-problems.js';

const ldap = { url: 'ldap://127.0.0.1:389', searchBase: 'ou=people,dc=example,dc=org' };

// authentication.handlers chooses the password handlers; ldap.* is checked when ldap is listed
describe('authentication.handlers and ldap.* settings', () => {
  it('defaults to the configured users only, and needs no ldap settings then', () => {
    const config = parseConfig({});
    expect(config.authentication.handlers).to.deep.equal(['config-users']);
    expect(config.ldap).to.deep.include({ mode: 'search', searchFilter: '(uid={user})', startTls: false, connectTimeoutMs: 5000, operationTimeoutMs: 5000 });
  });

  it('names each missing setting the ldap handler needs', () => {
    expect(problems({ authentication: { handlers: ['ldap'] } })).to.deep.equal([
      'ldap.url: is required when authentication.handlers lists ldap',
      'ldap.searchBase: is required in search mode',
    ]);
    expect(problems({ authentication: { handlers: ['ldap'] }, ldap: { url: ldap.url, mode: 'direct' } })).to.deep.equal(['ldap.dnPattern: is required in direct mode']);
    expect(problems({ authentication: { handlers: ['ldap'] }, ldap: { ...ldap, bindDn: 'cn=reader' } })).to.deep.equal(['ldap.bindPassword: set bindDn and bindPassword together']);
  });

  it('refuses malformed values with the setting named', () => {
    expect(problems({ ldap: { url: 'http://ldap.example.org' } })).to.deep.equal(['ldap.url: expected ldap://host:port or ldaps://host:port']);
    expect(problems({ ldap: { searchFilter: 'uid={user}' } })).to.deep.equal(['ldap.searchFilter: expected a parenthesized filter containing {user}, such as (uid={user})']);
    expect(problems({ ldap: { dnPattern: 'ou=people' } })[0]).to.match(/^ldap\.dnPattern: expected a DN containing \{user\}/);
    expect(problems({ ldap: { operationTimeoutMs: 0 } })[0]).to.match(/^ldap\.operationTimeoutMs: /);
    expect(problems({ ldap: { attributes: { mail: 3 } } })).to.deep.equal(['ldap.attributes.mail: expected a principal attribute name']);
    expect(problems({ ldap: { bindPw: 'x' } })).to.deep.equal(['ldap.bindPw: unknown setting']);
    expect(problems({ authentication: { handlers: ['ldap'] }, ldap: { ...ldap, url: 'ldaps://ldap.example.org', startTls: true } })).to.deep.equal([
      'ldap.startTls: an ldaps:// URL is already TLS; use ldap:// with startTls',
    ]);
  });

  it('refuses unknown, repeated and empty handler lists', () => {
    expect(problems({ authentication: { handlers: ['kerberos'] } })).to.deep.equal(['authentication.handlers[0]: expected one of config-users, ldap']);
    expect(problems({ authentication: { handlers: ['config-users', 'config-users'] } })).to.deep.equal(['authentication.handlers[1]: handler "config-users" is listed twice']);
    expect(problems({ authentication: { handlers: [] } })[0]).to.match(/^authentication\.handlers: expected at least one handler/);
  });

  it('binds the password handlers in the listed order, the order they are tried in', () => {
    const config = parseConfig({ authentication: { handlers: ['ldap', 'config-users'] }, ldap });
    const binder = buildContainer({ config, logger: createLogger('silent') });
    expect(binder.getAll(KEYS.CredentialHandler).map((handler) => handler.name)).to.deep.equal(['ldap', 'config-users']);
  });

  it('stops the start naming ldap.caFile when the CA file cannot be read', () => {
    const config = parseConfig({ authentication: { handlers: ['ldap'] }, ldap: { ...ldap, caFile: '/nonexistent/ca.pem' } });
    const binder = buildContainer({ config, logger: createLogger('silent') });
    expect(() => binder.getAll(KEYS.CredentialHandler)).to.throw(ConfigurationError, 'ldap.caFile: cannot read /nonexistent/ca.pem (ENOENT)');
  });
});
