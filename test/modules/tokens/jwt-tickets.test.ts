import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@tessera/core';
import { CasJwtCodec, verifyJwtServiceTicket, type TokenKeyPair } from '@tessera/core/modules/tokens';
import { APP, baseConfig, form, startTessera, type Tessera } from '../../support/tessera.js';

const JWT_APP = 'https://jwt.example.org/app';

/** An Apereo CAS service file, type wrappers and all, asking for JWT service tickets. */
const jwtService = {
  '@class': 'org.apereo.cas.services.CasRegisteredService',
  id: 10,
  name: 'JWT app',
  serviceId: '^https://jwt\\.example\\.org/.*',
  attributeReleasePolicy: { '@class': 'org.apereo.cas.services.ReturnAllAttributeReleasePolicy' },
  properties: {
    '@class': 'java.util.HashMap',
    jwtAsServiceTicket: { '@class': 'org.apereo.cas.services.DefaultRegisteredServiceProperty', values: ['java.util.HashSet', ['true']] },
  },
};

function tokensOn(keyFile: string, tokens: Record<string, unknown> = {}): Record<string, unknown> {
  return { modules: ['rest', 'tokens'], tokens: { keyFile, ...tokens }, services: [...(baseConfig()['services'] as unknown[]), jwtService] };
}

/** What a service does with the documented steps: the key file's keys, imported once. */
function codecFrom(keyFile: string): CasJwtCodec {
  const keys = JSON.parse(readFileSync(keyFile, 'utf8')) as TokenKeyPair;
  return new CasJwtCodec({ ...keys, encryptionAlgorithm: 'A128CBC-HS256' }, systemClock);
}

async function jwtTgt(tessera: Tessera, headers: Record<string, string> = {}, fields: Record<string, string> = { token: 'true' }): Promise<Response> {
  const init = form({ username: 'casuser', password: 'Mellon', ...fields });
  return fetch(`${tessera.url}/v1/tickets`, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } });
}

// docs/protocol.md §3 (token=true) and §6 — JWT tickets through the composed server
describe('JWT tickets over HTTP (docs/protocol.md §6)', () => {
  let keyFile: string;
  let tessera: Tessera;
  before(async () => {
    keyFile = join(mkdtempSync(join(tmpdir(), 'tessera-e2e-keys-')), 'token-keys.json');
    tessera = await startTessera(tokensOn(keyFile));
  });
  after(() => tessera.close());

  it('token=true: 201 text/plain JWT without Location, readable with the key file, for a stored TGT', async () => {
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const response = await jwtTgt(tessera);
    expect(response.status).to.equal(201);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    expect(response.headers.get('location')).to.equal(null);
    const jwt = await response.text();
    const claims = await codecFrom(keyFile).decode(jwt);
    expect(claims).to.include({ sub: 'casuser', iss: tessera.url, aud: tessera.url, mail: 'casuser@example.org' });
    expect((claims['exp'] as number) - (claims['iat'] as number)).to.equal(28800);

    const status = await fetch(`${tessera.url}/v1/tickets/${jwt}`);
    expect(status.status).to.equal(200);
    expect(await status.text()).to.equal(claims['jti']);
  });

  it('claims come from the user and the server only: no request parameter becomes or overrides a claim', async () => {
    const forged = new URLSearchParams([
      ['username', 'casuser'],
      ['password', 'Mellon'],
      ['token', 'true'],
      ['service', APP],
      ['memberOf', 'admins'],
      ['mail', 'mallory@example.org'],
      ['sub', 'root'],
      ['iss', 'https://evil.example.org'],
      ['nbf', '99999999999'],
      ['exp', '1'],
      ['iat', '0'],
      ['jti', 'TGT-forged'],
      ['__proto__', 'polluted'],
      ['otp', '123456'],
      ['additionalParam1', 'dropped'],
    ]);
    const response = await fetch(`${tessera.url}/v1/tickets`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: forged.toString() });
    expect(response.status).to.equal(201);
    const jwt = await response.text();
    const claims = await codecFrom(keyFile).decode(jwt);
    expect(Object.keys(claims).sort()).to.deep.equal(['aud', 'exp', 'iat', 'iss', 'jti', 'mail', 'memberOf', 'sub']);
    expect(claims).to.deep.include({ sub: 'casuser', iss: tessera.url, mail: 'casuser@example.org', memberOf: ['staff', 'faculty'] });
    expect((claims['exp'] as number) - (claims['iat'] as number)).to.equal(28800);
    // The server accepts its own token: nothing the client sent made it invalid.
    expect((await fetch(`${tessera.url}/v1/tickets/${jwt}`)).status).to.equal(200);
  });

  it('tokens.requestParameters copies the named parameters, as sent, into the one claim requestParameters', async () => {
    const other = join(mkdtempSync(join(tmpdir(), 'tessera-e2e-keys-')), 'token-keys.json');
    const withContext = await startTessera(tokensOn(other, { requestParameters: ['deviceId', 'memberOf', 'exp'] }));
    try {
      const response = await jwtTgt(withContext, {}, { token: 'true', deviceId: 'laptop-7', memberOf: 'admins', exp: '1', unlisted: 'dropped' });
      expect(response.status).to.equal(201);
      const claims = await codecFrom(other).decode(await response.text());
      expect(Object.keys(claims).sort()).to.deep.equal(['aud', 'exp', 'iat', 'iss', 'jti', 'mail', 'memberOf', 'requestParameters', 'sub']);
      expect(claims['requestParameters']).to.deep.equal({ deviceId: 'laptop-7', memberOf: 'admins', exp: '1' });
      expect(claims['memberOf']).to.deep.equal(['staff', 'faculty']);
      expect((claims['exp'] as number) - (claims['iat'] as number)).to.equal(28800);
      const without = await codecFrom(other).decode(await (await jwtTgt(withContext)).text());
      expect(without).to.not.have.property('requestParameters');
    } finally {
      await withContext.close();
    }
  });

  it('the `token` header works too', async () => {
    const response = await jwtTgt(tessera, { token: 'Yes' }, {});
    expect(response.headers.get('location')).to.equal(null);
    expect(await codecFrom(keyFile).decode(await response.text())).to.include({ sub: 'casuser' });
  });

  it('a JWT TGT grants a JWT ST that the service verifies, and that validates once', async () => {
    const tgt = await (await jwtTgt(tessera)).text();
    const granted = await fetch(`${tessera.url}/v1/tickets/${tgt}`, form({ service: JWT_APP }));
    expect(granted.status).to.equal(200);
    const st = await granted.text();
    const claims = await verifyJwtServiceTicket(codecFrom(keyFile), st, JWT_APP);
    expect(claims).to.include({ sub: 'casuser', aud: JWT_APP });
    expect(claims['jti']).to.match(/^ST-\d+-[A-Za-z0-9-]+-e2e$/);

    const validate = () => fetch(`${tessera.url}/p3/serviceValidate?service=${encodeURIComponent(JWT_APP)}&ticket=${st}`);
    const first = await validate();
    expect(first.status).to.equal(200);
    expect(await first.text()).to.include('<cas:user>casuser</cas:user>');
    const replay = await validate();
    expect(replay.status).to.equal(400);
    expect(await replay.text()).to.include('code="INVALID_TICKET"');
  });

  it('a restart keeps the key file, so tokens stay readable with the same keys', async () => {
    const before = readFileSync(keyFile, 'utf8');
    const codec = codecFrom(keyFile);
    await tessera.close();
    tessera = await startTessera(tokensOn(keyFile));
    expect(readFileSync(keyFile, 'utf8')).to.equal(before);
    expect(await codec.decode(await (await jwtTgt(tessera)).text())).to.include({ sub: 'casuser' });
  });
});

describe('JWT tickets with the tokens module off (docs/protocol.md §8)', () => {
  it('token=true is ignored: the usual TGT with a Location', async () => {
    const tessera = await startTessera();
    try {
      const response = await jwtTgt(tessera, { accept: 'text/plain' });
      expect(response.status).to.equal(201);
      expect(response.headers.get('location')).to.match(/\/v1\/tickets\/TGT-/);
      expect(await response.text()).to.match(/^TGT-/);
    } finally {
      await tessera.close();
    }
  });
});
