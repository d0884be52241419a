import { expect } from 'chai';
import { parseConfig } from '@tessera/cli-server';
import { configProblems as problems } from '../../config-problems.js';

const webauthnOn = (server: Record<string, unknown>, webauthn: Record<string, unknown> = {}) => ({ modules: ['login', 'webauthn'], server, webauthn });

// docs/modules/webauthn.md (Settings): the relying party comes from server.publicUrl, which WebAuthn must accept.
describe('webauthn module settings', () => {
  it('has defaults: the passkey button on, self-registration off, user verification preferred, 300 s challenges, 10 keys a user', () => {
    const { webauthn } = parseConfig(webauthnOn({ publicUrl: 'https://sso.example.org' }));
    expect(webauthn).to.deep.equal({ passwordless: true, selfRegistration: false, userVerification: 'preferred', relyingPartyName: 'tessera', challengeSeconds: 300, maxDevicesPerUser: 10 });
  });

  it('needs server.publicUrl naming a domain, over https or on localhost, naming the setting', () => {
    expect(problems(webauthnOn({}))).to.deep.equal(['server.publicUrl: is needed by the webauthn module: its relying party id and origin come from it (never from a request’s Host)']);
    expect(problems(webauthnOn({ publicUrl: 'https://192.0.2.10' }))).to.deep.equal([
      'server.publicUrl: names an IP address (192.0.2.10); WebAuthn needs a domain name as the relying party id (localhost on this machine)',
    ]);
    expect(problems(webauthnOn({ publicUrl: 'http://[::1]:8080' }))[0]).to.include('names an IP address (::1)');
    expect(problems(webauthnOn({ publicUrl: 'http://sso.example.org' }))).to.deep.equal([
      'server.publicUrl: must be https for the webauthn module: browsers offer WebAuthn only to secure pages (plain http on localhost alone)',
    ]);
    expect(() => parseConfig(webauthnOn({ publicUrl: 'http://localhost:8080' }))).to.not.throw();
    // Off, nothing is asked of the public URL.
    expect(() => parseConfig({ modules: ['login'], webauthn: { selfRegistration: true } })).to.not.throw();
  });

  it('refuses settings out of range, naming each', () => {
    expect(problems(webauthnOn({ publicUrl: 'https://sso.example.org' }, { userVerification: 'always', challengeSeconds: 0, maxDevicesPerUser: 1000 }))).to.deep.equal([
      'webauthn.userVerification: expected required, preferred or discouraged',
      'webauthn.challengeSeconds: expected a number from 1 to 3600',
      'webauthn.maxDevicesPerUser: expected a number from 1 to 100',
    ]);
  });
});
