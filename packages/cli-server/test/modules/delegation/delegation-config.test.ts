import { expect } from 'chai';
import { parseConfig } from '@tessera/cli-server';
import { configProblems as problems } from '../../config-problems.js';

const CAS = { id: 'partner', type: 'cas', title: 'Partner University', cas: { serverUrl: 'https://cas.partner.example/cas/' } };
const OIDC = { id: 'company', type: 'oidc', title: 'Example Corp', oidc: { issuer: 'https://login.example.com', clientId: 'tessera' } };
const delegationOn = (providers: unknown[], more: Record<string, unknown> = {}) => ({ modules: ['login', 'delegation'], server: { publicUrl: 'https://sso.example.org' }, delegation: { providers, ...more } });

// docs/modules/delegation.md (Settings): the upstream providers, each problem named by its setting.
describe('delegation module settings', () => {
  it('has defaults: no provider, 600 s upstream, 100 logins waiting per address; a provider’s own defaults filled in (scopes, no link, no upstream logout, 10 s timeout)', () => {
    expect(parseConfig({ modules: ['login', 'delegation'] }).delegation).to.deep.equal({ providers: [], stateSeconds: 600, waitingPerAddress: 100 });
    const [cas, oidc] = parseConfig(delegationOn([CAS, OIDC])).delegation.providers;
    // A trailing slash of an upstream URL is dropped.
    expect(cas).to.deep.equal({ ...CAS, cas: { serverUrl: 'https://cas.partner.example/cas' }, requireLink: false, logout: false, timeoutSeconds: 10 });
    expect(oidc?.oidc).to.deep.equal({ issuer: 'https://login.example.com', clientId: 'tessera', scopes: ['openid', 'profile', 'email'] });
  });

  it('refuses a bad provider, naming each setting', () => {
    const bad = { id: 'has space', type: 'saml', title: '', logoUrl: 'http://logo.example/x.png', timeoutSeconds: 0, surprise: true };
    expect(problems(delegationOn([bad]))).to.deep.equal([
      'delegation.providers[0].id: expected 1 to 64 letters, digits, - or _',
      'delegation.providers[0].type: expected oidc, oauth2, cas or saml2',
      'delegation.providers[0].title: expected a title',
      'delegation.providers[0].logoUrl: expected an https URL',
      'delegation.providers[0].timeoutSeconds: expected a number from 1 to 120',
      'delegation.providers[0].surprise: unknown setting',
    ]);
    expect(problems(delegationOn([{ ...OIDC, oidc: { issuer: 'http://login.example.com', clientId: 'tessera', scopes: ['profile'] } }]))).to.deep.equal([
      'delegation.providers[0].oidc.issuer: expected the issuer as an https URL (plain http only on localhost)',
      'delegation.providers[0].oidc.scopes: must include openid',
    ]);
    // Plain http on this machine only (a test's upstream).
    expect(() => parseConfig(delegationOn([{ ...OIDC, oidc: { issuer: 'http://127.0.0.1:4000', clientId: 'tessera' } }]))).to.not.throw();
  });

  it('refuses, when on, ids given twice, a provider without its type’s settings or with another’s, a required link without its attribute, and a logout of a kind without one', () => {
    expect(problems(delegationOn([CAS, { ...CAS, title: 'Again' }, { id: 'x', type: 'oidc', title: 'X', cas: CAS.cas }, { ...OIDC, id: 'y', requireLink: true }]))).to.deep.equal([
      'delegation.providers[1].id: the provider id partner is given twice',
      'delegation.providers[2].oidc: is required for a provider of type oidc',
      'delegation.providers[2].cas: is for a provider of type cas; this one is of type oidc',
      'delegation.providers[3].requireLink: needs linkAttribute, the upstream attribute naming the local user',
    ]);
    expect(problems(delegationOn([{ id: 'github', type: 'oauth2', title: 'GitHub', oidc: OIDC.oidc }]))).to.deep.equal([
      'delegation.providers[0].oauth2: is required for a provider of type oauth2',
      'delegation.providers[0].oidc: is for a provider of type oidc; this one is of type oauth2',
    ]);
    // Logout is for the kinds that have one.
    const github = { id: 'github', type: 'oauth2', title: 'GitHub', oauth2: { authorizationUrl: 'https://github.com/login/oauth/authorize', tokenUrl: 'https://github.com/login/oauth/access_token', profileUrl: 'https://api.github.com/user', clientId: 'id', clientSecret: 'secret' } };
    expect(problems(delegationOn([{ ...CAS, logout: true }, { ...OIDC, logout: true }, { ...github, logout: true }]))).to.deep.equal([
      'delegation.providers[2].logout: a plain OAuth 2.0 provider has no logout: only oidc and cas providers end the session upstream',
    ]);
    expect(problems(delegationOn([{ ...CAS, logout: 'yes' }]))).to.deep.equal(['delegation.providers[0].logout: expected true or false']);
    // Off, the sections are read but nothing across them is asked.
    expect(() => parseConfig({ modules: ['login'], delegation: { providers: [CAS, CAS] } })).to.not.throw();
  });

  it('reads a SAML 2 provider with its defaults (assertions signed, no response signature required, 120 s skew, unsigned requests) and refuses a key without its certificate, signed requests or a single logout without a key, a plain-http metadata URL', () => {
    const SAML2 = { id: 'federation', type: 'saml2', title: 'Federation', saml2: { metadata: '/etc/tessera/idp-metadata.xml', idpEntityId: 'https://idp.example.org/idp' } };
    expect(parseConfig(delegationOn([SAML2])).delegation.providers[0]?.saml2).to.deep.equal({
      ...SAML2.saml2,
      signAuthnRequests: false,
      wantAssertionsSigned: true,
      wantResponseSigned: false,
      clockSkewSeconds: 120,
    });
    expect(problems(delegationOn([{ ...SAML2, saml2: { ...SAML2.saml2, metadata: 'http://idp.example.org/metadata', keyFile: '/etc/tessera/sp.key', clockSkewSeconds: 3600 } }, { ...SAML2, id: 'other', saml2: { ...SAML2.saml2, signAuthnRequests: true } }]))).to.deep.equal([
      'delegation.providers[0].saml2.metadata: expected a file path, or an https URL (plain http only on localhost)',
      'delegation.providers[0].saml2.clockSkewSeconds: expected at most 600 seconds',
      'delegation.providers[0].saml2.certificateFile: keyFile and certificateFile go together: the key and its certificate',
      'delegation.providers[1].saml2.signAuthnRequests: needs keyFile and certificateFile, the key AuthnRequests are signed with',
    ]);
    expect(() => parseConfig(delegationOn([{ ...SAML2, saml2: { ...SAML2.saml2, metadata: 'https://idp.example.org/metadata', keyFile: '/etc/tessera/sp.key', certificateFile: '/etc/tessera/sp.crt', signAuthnRequests: true } }]))).to.not.throw();
    // Its single logout signs the LogoutRequest: without a key it is refused rather than sent unsigned.
    expect(problems(delegationOn([{ ...SAML2, logout: true }]))).to.deep.equal(['delegation.providers[0].logout: needs saml2.keyFile and saml2.certificateFile: a SAML 2 LogoutRequest is signed with tessera’s key (identity providers refuse unsigned ones)']);
    expect(() => parseConfig(delegationOn([{ ...SAML2, logout: true, saml2: { ...SAML2.saml2, keyFile: '/etc/tessera/sp.key', certificateFile: '/etc/tessera/sp.crt' } }]))).to.not.throw();
  });

  it('needs server.publicUrl once a provider is configured (the upstream sends the browser back to it)', () => {
    expect(problems({ modules: ['login', 'delegation'], delegation: { providers: [CAS] } })).to.deep.equal([
      'server.publicUrl: is needed by the delegation module: upstream providers send the browser back to a URL built from it',
    ]);
    expect(() => parseConfig({ modules: ['login', 'delegation'] })).to.not.throw();
  });

  it('needs the login module', () => {
    expect(problems({ modules: ['delegation'] })[0]).to.include('module "delegation" needs module "login", which is not enabled');
  });
});
