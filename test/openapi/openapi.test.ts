import { expect } from 'chai';
import { cryptoRandomSource, INVALID_CREDENTIALS } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import { startTessera, type Tessera } from '../support/tessera.js';

interface Document {
  readonly openapi: string;
  readonly servers: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
}

interface Operation {
  readonly parameters?: readonly { readonly name: string; readonly in: string }[];
  readonly requestBody?: { readonly content: Readonly<Record<string, { readonly schema: { readonly properties?: Readonly<Record<string, { readonly type?: string }>> } }>> };
}

async function openApi(tessera: Tessera): Promise<Document> {
  const response = await fetch(`${tessera.url}/openapi.json`);
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  return (await response.json()) as Document;
}

const loginParameters = (document: Document) => document.paths['/v1/tickets']?.['post']?.requestBody?.content['application/json']?.schema.properties ?? {};
const loginHeaders = (document: Document) => (document.paths['/v1/tickets']?.['post']?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);

// docs/protocol.md §11 — the OpenAPI document of the running server, over real HTTP
describe('docs/protocol.md §11 OpenAPI document end to end', () => {
  describe('with the default modules (rest)', () => {
    let tessera: Tessera;
    before(async () => (tessera = await startTessera()));
    after(() => tessera.close());

    it('GET /cas/openapi.json answers the OpenAPI 3.1 document whose server is the URL the client used', async () => {
      const document = await openApi(tessera);
      expect(document.openapi).to.equal('3.1.0');
      expect(document.servers).to.deep.equal([{ url: tessera.url }]);
      expect(document.paths).to.include.keys('/v1/tickets', '/v1/tickets/{tgt}', '/v1/tickets/{id}', '/v1/users', '/p3/serviceValidate', '/openapi.json');
    });

    it('has nothing of the modules that are off: no services paths, no otp or token parameter, no token header', async () => {
      const document = await openApi(tessera);
      expect(document.paths).to.not.have.any.keys('/v1/services', '/v1/services/add/{tgt}');
      expect(loginParameters(document)).to.have.all.keys('username', 'password', 'service');
      expect(loginHeaders(document)).to.deep.equal([]);
    });
  });

  describe('with rest, tokens, services, otp and throttle', () => {
    let tessera: Tessera;
    before(async () => {
      const { signingKey, encryptionKey } = generateTokenKeys('A128CBC-HS256', cryptoRandomSource);
      tessera = await startTessera({
        modules: ['rest', 'tokens', 'services', 'otp', 'throttle'],
        tokens: { signingKey, encryptionKey },
        registration: { earlier: true, requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
        otp: { parameter: 'passcode' },
      });
    });
    after(() => tessera.close());

    it('documents each module: both services paths, the configured otp parameter, the token parameter and header', async () => {
      const document = await openApi(tessera);
      expect(document.paths).to.include.keys('/v1/services', '/v1/services/add/{tgt}');
      expect(loginParameters(document)).to.have.all.keys('username', 'password', 'passcode', 'service', 'token');
      expect(loginHeaders(document)).to.deep.equal(['token']);
    });

    it('a parameter the document declares a string is refused as a JSON number, naming it; as a string it is read', async () => {
      const document = await openApi(tessera);
      expect(loginParameters(document)['passcode']?.type).to.equal('string');
      const refused = await fetch(`${tessera.url}/v1/tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', password: 'secret', passcode: 123456 }),
      });
      expect(refused.status).to.equal(400);
      expect(await refused.text()).to.equal("Parameter 'passcode' must be a string");
      const read = await fetch(`${tessera.url}/v1/tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/plain' },
        body: JSON.stringify({ username: 'alice', password: 'secret', passcode: '123456' }),
      });
      // alice's password is right and she has no OTP secret: the code was read and handed to the otp handler, which refused it.
      expect(read.status).to.equal(401);
      expect(await read.json()).to.deep.equal({ authentication_exceptions: [INVALID_CREDENTIALS] });
    });
  });
});
