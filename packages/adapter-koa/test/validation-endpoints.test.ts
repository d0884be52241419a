import { expect } from 'chai';
import { APP, createTgt, grantSt, loginSt, testServer } from './harness.js';

const CAS2_AND_3 = ['/serviceValidate', '/proxyValidate', '/p3/serviceValidate', '/p3/proxyValidate'];

describe('docs/protocol.md §3 validation endpoints', () => {
  for (const path of CAS2_AND_3) {
    it(`${path} validates a REST-issued ST once, releasing attributes`, async () => {
      const server = testServer();
      const st = await loginSt(server);
      const first = await server.http.get(`/cas${path}`).query({ service: APP, ticket: st });
      expect(first.status).to.equal(200);
      expect(first.text).to.include('<cas:user>casuser</cas:user>').and.to.include('<cas:memberOf>faculty</cas:memberOf>');
      const second = await server.http.get(`/cas${path}`).query({ service: APP, ticket: st });
      expect(second.status).to.equal(400);
      expect(second.text).to.include('code="INVALID_TICKET"');
    });
  }

  it('takes ticket before service, lower-case percent-encoding and an unencoded service URL', async () => {
    const server = testServer();
    const lower = await server.http.get(`/cas/p3/serviceValidate?ticket=${await loginSt(server)}&service=https%3a%2f%2fapp.example.org%2fhome`);
    expect(lower.status).to.equal(200);
    const raw = await server.http.get(`/cas/serviceValidate?service=${APP}&ticket=${await loginSt(server)}`);
    expect(raw.status).to.equal(200);
  });

  it('failure codes: INVALID_REQUEST without service or ticket, INVALID_SERVICE on mismatch (ticket burnt)', async () => {
    const server = testServer();
    const st = await loginSt(server);
    const missing = await server.http.get('/cas/p3/serviceValidate').query({ ticket: st });
    expect(missing.text).to.include('code="INVALID_REQUEST"');
    const mismatch = await server.http.get('/cas/p3/serviceValidate').query({ service: 'https://app.example.org/other', ticket: st });
    expect(mismatch.text).to.include('code="INVALID_SERVICE"');
    const retry = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: st });
    expect(retry.text).to.include('code="INVALID_TICKET"');
  });

  it('renew=true accepts an ST from a fresh login only', async () => {
    const server = testServer();
    const tgt = await createTgt(server);
    const fresh = await grantSt(server, tgt);
    const reused = await grantSt(server, tgt);
    expect((await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: fresh, renew: 'TRUE' })).status).to.equal(200);
    const refused = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: reused, renew: 'true' });
    expect(refused.text).to.include('code="INVALID_TICKET"');
  });

  describe('validationFailureStatus', () => {
    it('400 by default for a failure, 200 for success', async () => {
      const server = testServer();
      expect((await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: 'ST-1-x' })).status).to.equal(400);
      expect((await server.http.get('/cas/validate').query({ service: APP, ticket: 'ST-1-x' })).status).to.equal(400);
    });

    it('200 for every validation failure when configured, body unchanged', async () => {
      const server = testServer({ options: { validationFailureStatus: 200 } });
      const xml = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: 'ST-1-x' });
      expect(xml.status).to.equal(200);
      expect(xml.text).to.include('<cas:authenticationFailure code="INVALID_TICKET">');
      const json = await server.http.get('/cas/serviceValidate').query({ service: APP, ticket: 'ST-1-x', format: 'JSON' });
      expect(json.status).to.equal(200);
      expect((await server.http.get('/cas/validate').query({ service: APP, ticket: 'ST-1-x' })).status).to.equal(200);
    });
  });

  describe('format=JSON', () => {
    it('success {"serviceResponse":{"authenticationSuccess":{user, attributes}}}, any case of JSON', async () => {
      const server = testServer();
      for (const format of ['JSON', 'json', 'Json']) {
        const response = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: await loginSt(server), format });
        expect(response.status).to.equal(200);
        expect(response.headers['content-type']).to.match(/^application\/json/);
        expect(response.body).to.deep.equal({
          serviceResponse: {
            authenticationSuccess: {
              user: 'casuser',
              attributes: { memberOf: ['staff', 'faculty'], isFromNewLogin: ['true'], authenticationDate: ['2026-11-21T10:00:00Z'] },
            },
          },
        });
      }
    });

    it('failure {"serviceResponse":{"authenticationFailure":{code, description}}}', async () => {
      const response = await testServer().http.get('/cas/serviceValidate').query({ ticket: 'ST-1-gone', service: APP, format: 'json' });
      expect(response.status).to.equal(400);
      expect(response.body).to.deep.equal({
        serviceResponse: { authenticationFailure: { code: 'INVALID_TICKET', description: "Ticket 'ST-1-gone' not recognized" } },
      });
    });

    it('the Accept header never changes the format; other format values mean XML', async () => {
      const server = testServer();
      const accept = await server.http.get('/cas/p3/serviceValidate').set('Accept', 'application/json').query({ service: APP, ticket: await loginSt(server) });
      expect(accept.headers['content-type']).to.equal('application/xml; charset=utf-8');
      expect(accept.text).to.match(/^<cas:serviceResponse/);
      const other = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: await loginSt(server), format: 'yaml' });
      expect(other.headers['content-type']).to.equal('application/xml; charset=utf-8');
    });
  });

  describe('CAS 1 /validate', () => {
    it('success "yes\\n<user>\\n" as text/plain, whatever format asks', async () => {
      const server = testServer();
      const response = await server.http.get('/cas/validate').query({ service: APP, ticket: await loginSt(server), format: 'JSON' });
      expect(response.status).to.equal(200);
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.text).to.equal('yes\ncasuser\n');
    });

    it('failure "no\\n\\n"', async () => {
      const response = await testServer().http.get('/cas/validate').query({ service: APP });
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.text).to.equal('no\n\n');
    });
  });

  describe('requests the endpoints cannot take still get a CAS document', () => {
    it('another method → 405 with Allow: GET, HEAD and INVALID_REQUEST', async () => {
      const server = testServer();
      const response = await server.http.post('/cas/p3/serviceValidate').type('form').send({ service: APP, ticket: 'ST-1-x' });
      expect(response.status).to.equal(405);
      expect(response.headers.allow).to.equal('GET, HEAD');
      expect(response.text).to.include('<cas:authenticationFailure code="INVALID_REQUEST">');
    });

    it('a body of an unreadable media type → 415 with INVALID_REQUEST, the ticket untouched', async () => {
      const server = testServer();
      const st = await loginSt(server);
      const response = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: st, format: 'JSON' }).set('Content-Type', 'text/plain').send('x');
      expect(response.status).to.equal(415);
      expect((response.body as { serviceResponse: { authenticationFailure: { code: string } } }).serviceResponse.authenticationFailure.code).to.equal('INVALID_REQUEST');
      expect(await server.tickets.get(st)).not.to.equal(undefined);
    });
  });
});
