import { expect } from 'chai';
import { XMLValidator } from 'fast-xml-parser';
import { RecordingProxyCallback } from '@tessera/testkit/modules/proxy';
import { APP, createTgt, grantSt, PROXY_APP, PROXY_CALLBACK, testServer, type TestServer } from '../../harness.js';
import { openApiOf, operation } from '../../openapi-document.js';

interface JsonAnswer {
  readonly serviceResponse: {
    readonly authenticationSuccess?: Record<string, unknown>;
    readonly proxySuccess?: { readonly proxyTicket: string };
  };
}

const jsonOf = (response: { body: unknown }) => (response.body as JsonAnswer).serviceResponse;

function proxyServer() {
  const callback = new RecordingProxyCallback();
  return { server: testServer({ proxyCallback: callback }), callback };
}

/** Validates a fresh ST of the proxy app with pgtUrl; the validation's answer and the PGT its callback got. */
async function pgtOf(server: TestServer, callback: RecordingProxyCallback, path = '/cas/p3/serviceValidate') {
  const st = await grantSt(server, await createTgt(server), PROXY_APP);
  const answer = await server.http.get(path).query({ service: PROXY_APP, ticket: st, pgtUrl: PROXY_CALLBACK });
  return { answer, pgt: callback.calls.at(-1)?.pgtId };
}

// docs/protocol.md §13 over the app: pgtUrl, GET /proxy and the proxy paths' answers.
describe('proxy module routes (docs/protocol.md §13)', () => {
  for (const path of ['/cas/serviceValidate', '/cas/proxyValidate', '/cas/p3/serviceValidate', '/cas/p3/proxyValidate']) {
    it(`${path} with pgtUrl names the delivered PGT's IOU after the attributes`, async () => {
      const { server, callback } = proxyServer();
      const { answer, pgt } = await pgtOf(server, callback, path);
      expect(answer.status).to.equal(200);
      const [call] = callback.calls;
      expect(call?.url).to.equal(PROXY_CALLBACK);
      expect(pgt).to.match(/^PGT-/);
      expect(answer.text).to.match(new RegExp(`</cas:attributes>\\n    <cas:proxyGrantingTicket>${call!.pgtIou}</cas:proxyGrantingTicket>\\n  </cas:authenticationSuccess>`));
      expect(answer.text).to.not.include(pgt!);
    });
  }

  it('answers in JSON with proxyGrantingTicket, and without one when the callback did not take the PGT', async () => {
    const { server, callback } = proxyServer();
    const tgt = await createTgt(server);
    const json = await server.http.get('/cas/p3/serviceValidate').query({ service: PROXY_APP, ticket: await grantSt(server, tgt, PROXY_APP), pgtUrl: PROXY_CALLBACK, format: 'json' });
    expect(jsonOf(json).authenticationSuccess).to.deep.include({ user: 'casuser', proxyGrantingTicket: callback.calls[0]!.pgtIou });
    callback.outcome = { delivered: false, reason: 'timeout' };
    const refused = await server.http.get('/cas/p3/serviceValidate').query({ service: PROXY_APP, ticket: await grantSt(server, tgt, PROXY_APP), pgtUrl: PROXY_CALLBACK, format: 'JSON' });
    expect(refused.status).to.equal(200);
    expect(jsonOf(refused).authenticationSuccess).to.have.keys('user', 'attributes');
    const xml = await server.http.get('/cas/p3/serviceValidate').query({ service: PROXY_APP, ticket: await grantSt(server, tgt, PROXY_APP), pgtUrl: PROXY_CALLBACK });
    expect(xml.status).to.equal(200);
    expect(xml.text).to.include('<cas:user>casuser</cas:user>').and.not.include('proxyGrantingTicket');
  });

  it('CAS 1 /validate never delivers a PGT, nor does a failed validation', async () => {
    const { server, callback } = proxyServer();
    const tgt = await createTgt(server);
    expect((await server.http.get('/cas/validate').query({ service: PROXY_APP, ticket: await grantSt(server, tgt, PROXY_APP), pgtUrl: PROXY_CALLBACK })).text).to.equal('yes\ncasuser\n');
    const failed = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: await grantSt(server, tgt, PROXY_APP), pgtUrl: PROXY_CALLBACK });
    expect(failed.text).to.include('code="INVALID_SERVICE"');
    expect(callback.calls).to.deep.equal([]);
  });

  it('GET /proxy answers a PT in cas:proxySuccess, which /proxyValidate validates listing the proxy, in XML and JSON', async () => {
    const { server, callback } = proxyServer();
    const { pgt } = await pgtOf(server, callback);
    const proxy = await server.http.get('/cas/proxy').query({ pgt, targetService: APP });
    expect(proxy.status).to.equal(200);
    expect(proxy.type).to.equal('application/xml');
    const pt = /<cas:proxyTicket>(PT-[^<]+)<\/cas:proxyTicket>/.exec(proxy.text)?.[1];
    expect(proxy.text).to.equal(
      `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">\n  <cas:proxySuccess>\n    <cas:proxyTicket>${pt}</cas:proxyTicket>\n  </cas:proxySuccess>\n</cas:serviceResponse>\n`,
    );
    const validated = await server.http.get('/cas/proxyValidate').query({ service: APP, ticket: pt });
    expect(validated.status).to.equal(200);
    expect(XMLValidator.validate(validated.text)).to.equal(true);
    expect(validated.text).to.match(new RegExp(`</cas:attributes>\\n    <cas:proxies>\\n      <cas:proxy>${PROXY_CALLBACK}</cas:proxy>\\n    </cas:proxies>\\n  </cas:authenticationSuccess>`));

    const json = await server.http.get('/cas/proxy').query({ pgt, targetService: APP, format: 'JSON' });
    const ticket = jsonOf(json).proxySuccess!.proxyTicket;
    expect(ticket).to.match(/^PT-/);
    const jsonValidated = await server.http.get('/cas/p3/proxyValidate').query({ service: APP, ticket, format: 'JSON' });
    expect(jsonOf(jsonValidated).authenticationSuccess).to.deep.include({ user: 'casuser', proxies: [PROXY_CALLBACK] });
  });

  it('/serviceValidate and /p3/serviceValidate refuse a PT with INVALID_TICKET', async () => {
    const { server, callback } = proxyServer();
    const { pgt } = await pgtOf(server, callback);
    for (const path of ['/cas/serviceValidate', '/cas/p3/serviceValidate']) {
      const pt = /PT-[^<]+/.exec((await server.http.get('/cas/proxy').query({ pgt, targetService: APP })).text)![0];
      const refused = await server.http.get(path).query({ service: APP, ticket: pt });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('<cas:authenticationFailure code="INVALID_TICKET">').and.include('is a proxy ticket');
    }
  });

  it('GET /proxy failures are cas:proxyFailure documents with the code, at the validation failure status', async () => {
    const { server, callback } = proxyServer();
    const { pgt } = await pgtOf(server, callback);
    const missing = await server.http.get('/cas/proxy').query({ pgt });
    expect(missing.status).to.equal(400);
    expect(missing.text).to.equal(
      `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">\n  <cas:proxyFailure code="INVALID_REQUEST">'pgt' and 'targetService' parameters are both required</cas:proxyFailure>\n</cas:serviceResponse>\n`,
    );
    const unknown = await server.http.get('/cas/proxy').query({ pgt: 'PGT-1-nope-test', targetService: APP, format: 'JSON' });
    expect(unknown.body).to.deep.equal({ serviceResponse: { proxyFailure: { code: 'INVALID_TICKET', description: "Ticket 'PGT-1-nope-test' not recognized" } } });
    const unregistered = await server.http.get('/cas/proxy').query({ pgt, targetService: 'https://unknown.example.com/' });
    expect(unregistered.text).to.include('<cas:proxyFailure code="UNAUTHORIZED_SERVICE">');
    const post = await server.http.post('/cas/proxy').query({ pgt, targetService: APP });
    expect(post.status).to.equal(405);
    expect(post.headers['allow']).to.equal('GET, HEAD');
    expect(post.text).to.include('<cas:proxyFailure code="INVALID_REQUEST">');

    const lenient = testServer({ proxyCallback: new RecordingProxyCallback(), options: { validationFailureStatus: 200 } });
    expect((await lenient.http.get('/cas/proxy').query({ pgt: 'PGT-1-nope-test', targetService: APP })).status).to.equal(200);
  });

  it('the OpenAPI document shows GET /proxy and pgtUrl only with the module on', async () => {
    const on = await openApiOf(proxyServer().server);
    expect(operation(on, 'get', '/proxy').operationId).to.equal('proxy');
    for (const path of ['/serviceValidate', '/proxyValidate', '/p3/serviceValidate', '/p3/proxyValidate']) {
      expect((operation(on, 'get', path).parameters ?? []).map(({ name }) => name), path).to.include('pgtUrl');
    }
    expect((operation(on, 'get', '/validate').parameters ?? []).map(({ name }) => name)).to.not.include('pgtUrl');
    const off = await openApiOf(testServer());
    expect(off.paths).to.not.have.property('/proxy');
    expect((operation(off, 'get', '/serviceValidate').parameters ?? []).map(({ name }) => name)).to.not.include('pgtUrl');
    expect((await testServer().http.get('/cas/proxy').query({ pgt: 'PGT-1-x', targetService: APP })).status).to.equal(404);
  });
});
