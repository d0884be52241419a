import { expect } from 'chai';
import { AuthenticationFailedError, Argon2PasswordHasher } from '@tessera/core';
import { buildContainer, createLogger, parseConfig, KEYS, type Config } from '@tessera/cli-server';

function containerFor(config: Config) {
  return buildContainer({ config, logger: createLogger('silent') });
}

const credential = (password: string) => ({ type: 'usernamePassword', id: 'casuser', username: 'casuser', password }) as const;

// docs/protocol.md §8 — the composition root installs only the enabled modules
describe('container composition (docs/protocol.md §8)', () => {
  let phc: string;
  before(async () => {
    phc = await new Argon2PasswordHasher().hash('Mellon');
  });

  it('with rest on: its routes, the username/password extractor and the config-users handler', async () => {
    const binder = containerFor(parseConfig({ users: [{ username: 'casuser', passwordHash: phc, attributes: { memberOf: 'staff' } }] }));
    expect(binder.getAll(KEYS.HttpModule).map((module) => module.name)).to.deep.equal(['rest']);
    expect(binder.getAll(KEYS.CredentialExtractor)).to.have.length(1);
    expect(binder.getAll(KEYS.CredentialHandler).map((handler) => handler.name)).to.deep.equal(['config-users']);

    const core = binder.get(KEYS.CasCore);
    const authentication = await core.authenticator.authenticate([credential('Mellon')]);
    expect(authentication.principal).to.deep.equal({ id: 'casuser', attributes: { memberOf: ['staff'] } });
    expect(Object.keys(authentication.successes)).to.deep.equal(['config-users']);
    let failure: unknown;
    await core.authenticator.authenticate([credential('wrong')]).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(AuthenticationFailedError);
  });

  it('with no module on: no module routes, only the central authentication, and the web app still builds', () => {
    const binder = containerFor(parseConfig({ modules: [], authentication: { handlers: ['config-users', 'ldap'] }, ldap: { url: 'ldap://127.0.0.1:1', searchBase: 'dc=example' } }));
    expect(binder.getAll(KEYS.HttpModule)).to.deep.equal([]);
    expect(binder.getAll(KEYS.CredentialExtractor).map((extractor) => Object.keys(extractor.parameters))).to.deep.equal([['username', 'password']]);
    expect(binder.getAll(KEYS.CredentialHandler).map((handler) => handler.name)).to.deep.equal(['config-users', 'ldap']);
    expect(binder.get(KEYS.HttpApp).callback()).to.be.a('function');
  });

  it('every port is one shared instance built from the settings: the core and the server see one ticket store', async () => {
    const binder = containerFor(parseConfig({ users: [{ username: 'casuser', password: 'Mellon' }], server: { nodeName: 'node7' } }));
    const core = binder.get(KEYS.CasCore);
    expect(binder.get(KEYS.CasCore)).to.equal(core);
    const tickets = binder.get(KEYS.TicketStore);
    const tgt = await core.createTicketGrantingTicket.execute({ credentials: [credential('Mellon')] });
    expect(tgt.hardExpiresAt - tgt.createdAt).to.equal(8 * 60 * 60 * 1000);
    expect(tgt.id).to.match(/^TGT-\d+-[A-Za-z0-9-]+-node7$/);
    expect(await tickets.get(tgt.id)).to.deep.include({ id: tgt.id });
  });
});
