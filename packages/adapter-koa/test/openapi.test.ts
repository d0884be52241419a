import { cryptoRandomSource } from '@tessera/core';
import { RegisterService } from '@tessera/core/modules/services';
import { expect } from 'chai';
import { z } from 'zod';
import { credentialExtractor, defineRoute, type HttpModule } from '../src/index.js';
import { otpExtractor } from '../src/modules/otp/index.js';
import { usernamePasswordExtractor } from '../src/index.js';
import { servicesModule } from '../src/modules/services/index.js';
import { BUILT_IN_CODEC } from './built-in-codec.js';
import { USERNAME } from '../src/request/credentials.js';
import { CASUSER, testServer, testTokenKeys, type ServerSetup } from './harness.js';
import { bodyParameters, headerNames, openApiOf, operation, parameterNames } from './openapi-document.js';

const THROTTLE = { threshold: 3, rangeSeconds: 60, lockSeconds: 60, maxLockSeconds: 900 };

const services = (variants: { current: boolean; earlier: boolean }): NonNullable<ServerSetup['modules']> => ({ core, tickets, registry, events }) => [
  servicesModule({
    ...variants,
    acceptedTypes: ['org.apereo.cas.services.CasRegisteredService'],
    codec: BUILT_IN_CODEC,
    registerService: new RegisterService(
      { authenticator: core.authenticator, tickets, registry, events, random: cryptoRandomSource },
      { requiredAttribute: { name: 'memberOf', valuePattern: 'staff' } },
    ),
  }),
];

// docs/protocol.md §11 — one OpenAPI 3.1 document of the REST interface, generated from the routes' own declarations
describe('docs/protocol.md §11 OpenAPI document: GET <basePath>/openapi.json', () => {
  it('answers 200 application/json with an OpenAPI 3.1 document whose server is the base URL as the request reached it', async () => {
    const document = await openApiOf(testServer());
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers).to.have.length(1);
    expect(document.servers[0]!.url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/cas$/);

    const proxied = testServer({ options: { trustProxy: true, allowedHosts: ['sso.example.org'] } });
    const behindProxy = await proxied.http.get('/cas/openapi.json').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'sso.example.org');
    expect((behindProxy.body as { servers: unknown }).servers).to.deep.equal([{ url: 'https://sso.example.org/cas' }]);
    const atRoot = await testServer({ options: { basePath: '', allowedHosts: ['cas.example.org'] } }).http.get('/openapi.json').set('Host', 'cas.example.org');
    expect((atRoot.body as { servers: unknown }).servers).to.deep.equal([{ url: 'http://cas.example.org' }]);
  });

  it('with rest only: the validation endpoints, the rest routes and itself, nothing of the modules that are off', async () => {
    const document = await openApiOf(testServer());
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations).to.have.members([
      'GET /validate',
      'GET /serviceValidate',
      'GET /proxyValidate',
      'GET /p3/serviceValidate',
      'GET /p3/proxyValidate',
      'POST /samlValidate',
      'POST /v1/tickets',
      'POST /v1/tickets/{tgt}',
      'GET /v1/tickets/{id}',
      'DELETE /v1/tickets/{id}',
      'POST /v1/users',
      'GET /openapi.json',
    ]);
    expect(parameterNames(document, '/v1/tickets')).to.deep.equal(['username', 'password', 'service']);
    expect(headerNames(operation(document, 'post', '/v1/tickets'))).to.deep.equal([]);
    expect(operation(document, 'post', '/v1/tickets').responses).to.not.have.any.keys('423');
    expect(operation(document, 'get', '/serviceValidate').responses).to.not.have.any.keys('429');
    expect(document.components.securitySchemes).to.equal(undefined);
  });

  it('each enabled part adds its parameters and answers: otp code, token flag and header, 423 lock, 429 rate limit', async () => {
    const document = await openApiOf(
      testServer({
        extractors: [usernamePasswordExtractor, otpExtractor('totp')],
        tokenKeys: testTokenKeys(),
        throttle: THROTTLE,
        validationRate: { burst: 5, requestsPerSecond: 1 },
      }),
    );
    expect(parameterNames(document, '/v1/tickets')).to.deep.equal(['username', 'password', 'totp', 'service', 'token']);
    expect(headerNames(operation(document, 'post', '/v1/tickets'))).to.deep.equal(['token']);
    expect(parameterNames(document, '/v1/users')).to.deep.equal(['username', 'password', 'totp', 'service']);
    expect(parameterNames(document, '/v1/tickets/{tgt}')).to.deep.equal(['username', 'password', 'totp', 'service', 'TARGET', 'renew']);
    for (const path of ['/v1/tickets', '/v1/tickets/{tgt}', '/v1/users']) {
      expect(operation(document, 'post', path).responses['423']?.headers).to.have.key('Retry-After');
    }
    expect(operation(document, 'get', '/serviceValidate').responses['429']?.headers).to.have.key('Retry-After');
  });

  it("an extractor's parameters and headers are parsed and documented on every credential-taking route", async () => {
    const headerPassword = credentialExtractor(
      { parameters: { username: USERNAME }, headers: { 'x-password': z.string().optional().meta({ description: 'A password in a header.' }) } },
      ({ parameters: { username }, headers }) => (username && headers['x-password'] ? [{ type: 'usernamePassword', id: username, username, password: headers['x-password'] }] : []),
    );
    const server = testServer({ extractors: [headerPassword] });
    const document = await openApiOf(server);
    for (const path of ['/v1/tickets', '/v1/users']) {
      expect(parameterNames(document, path), path).to.deep.equal(['username', 'service']);
      expect(headerNames(operation(document, 'post', path)), path).to.deep.equal(['x-password']);
    }
    const login = await server.http.post('/cas/v1/tickets').set('X-Password', 'Mellon').set('Accept', 'text/plain').type('form').send({ username: 'casuser' });
    expect(login.status, login.text).to.equal(201);
  });

  it('each services variant adds its own path; the current one is documented with HTTP Basic', async () => {
    const current = await openApiOf(testServer({ modules: services({ current: true, earlier: false }) }));
    expect(operation(current, 'post', '/v1/services').security).to.deep.equal([{ basicAuth: [] }]);
    expect(current.components.securitySchemes).to.deep.equal({ basicAuth: { type: 'http', scheme: 'basic', description: 'A username and password, checked like a login.' } });
    expect(current.paths).to.not.have.any.keys('/v1/services/add/{tgt}');
    const earlier = await openApiOf(testServer({ modules: services({ current: false, earlier: true }) }));
    expect(parameterNames(earlier, '/v1/services/add/{tgt}')).to.deep.equal(['serviceId', 'name', 'description', 'evaluationOrder', 'enabled', 'ssoEnabled']);
    expect(earlier.paths).to.not.have.any.keys('/v1/services');
  });

  it('statuses come from the one status table and the settings: rest.revision earlier, validationFailureStatus 200', async () => {
    const earlier = await openApiOf(testServer({ restRevision: 'earlier' }));
    const login = operation(earlier, 'post', '/v1/tickets').responses;
    expect(login).to.not.have.any.keys('401');
    expect(login['400']?.content).to.have.all.keys('text/plain', 'application/json');

    const always200 = await openApiOf(testServer({ options: { validationFailureStatus: 200 } }));
    const validation = operation(always200, 'get', '/p3/serviceValidate').responses;
    // Failed validations and server faults answer 200; a request the server cannot read keeps its own status.
    expect(validation).to.have.all.keys('200', '400', '405', '413', '415');
    expect(validation['200']?.content?.['application/json']).to.deep.equal({
      schema: { anyOf: [{ $ref: '#/components/schemas/CasAuthenticationSuccess' }, { $ref: '#/components/schemas/CasAuthenticationFailure' }] },
    });
  });

  it('a route declaring path parameters its path does not have is refused when the app is built', () => {
    const broken: HttpModule = {
      name: 'broken',
      routes: (http) => [
        defineRoute({
          method: 'get',
          path: '/v1/things/{thing}',
          operationId: 'getThing',
          summary: 'A thing',
          request: { params: z.object({ other: z.string() }) },
          responses: {},
          failures: http.restFailures,
          steps: [],
          handle: () => Promise.resolve(),
        }),
      ],
    };
    expect(() => testServer({ modules: () => [broken] })).to.throw('GET /v1/things/{thing} declares path parameters [other]');
  });

  it('an extractor header that is not lower-case (it would never match) is refused when the app is built', () => {
    const upper = credentialExtractor({ parameters: {}, headers: { 'SSL_Client_Cert': z.string().optional() } }, () => []);
    expect(() => testServer({ extractors: [upper] })).to.throw('POST /v1/tickets declares headers [SSL_Client_Cert]; use lower-case names');
  });
});

// docs/protocol.md §11 and §2 — the document shows the schema the route parses its input through
describe('docs/protocol.md §11 the schema a route refuses input with is the one its document shows', () => {
  it('every documented parameter of POST /v1/tickets is a string, and a JSON value of another type is refused naming it', async () => {
    const server = testServer({ extractors: [usernamePasswordExtractor, otpExtractor('otp')], tokenKeys: testTokenKeys() });
    const schema = bodyParameters(await openApiOf(server), '/v1/tickets');
    expect(schema.additionalProperties).to.deep.include({ type: 'string' });
    const names = [...Object.keys(schema.properties ?? {}), 'additionalParam1'];
    expect(names).to.include.members(['username', 'password', 'otp', 'service', 'token']);
    for (const name of names) {
      expect(schema.properties?.[name]?.type ?? 'string', name).to.equal('string');
      for (const value of [42, true, ['x'], { x: 1 }, null]) {
        const response = await server.http.post('/cas/v1/tickets').type('json').send({ ...CASUSER, [name]: value });
        expect(response.status, `${name}: ${JSON.stringify(value)}`).to.equal(400);
        expect(response.text).to.equal(`Parameter '${name}' must be a string`);
      }
    }
    expect(server.tickets.tickets.size).to.equal(0);
    const conforming = await server.http.post('/cas/v1/tickets').type('json').send({ ...CASUSER, additionalParam1: 'x', token: 'no' });
    expect(conforming.status).to.equal(201);
  });
});
