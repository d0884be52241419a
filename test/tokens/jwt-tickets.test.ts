import { expect } from 'chai';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CasJwtCodec, systemClock, verifyJwtServiceTicket, type TokenKeyPair } from '@tessera/core';
import { baseConfig, form, startTessera, type Tessera } from '../support/tessera.js';

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

function tokensOn(keyFile: string): Record<string, unknown> {
  return { modules: ['rest', 'tokens'], tokens: { keyFile }, services: [...(baseConfig()['services'] as unknown[]), jwtService] };
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
    const response = await jwtTgt(tessera, {}, { token: 'true', additionalParam1: 'kept' });
    expect(response.status).to.equal(201);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    expect(response.headers.get('location')).to.equal(null);
    const jwt = await response.text();
    const claims = await codecFrom(keyFile).decode(jwt);
    expect(claims).to.include({ sub: 'casuser', iss: tessera.url, aud: tessera.url, mail: 'casuser@example.org', additionalParam1: 'kept' });
    expect(claims).to.not.have.any.keys('password', 'username', 'token');
    expect((claims['exp'] as number) - (claims['iat'] as number)).to.equal(28800);

    const status = await fetch(`${tessera.url}/v1/tickets/${jwt}`);
    expect(status.status).to.equal(200);
    expect(await status.text()).to.equal(claims['jti']);
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
