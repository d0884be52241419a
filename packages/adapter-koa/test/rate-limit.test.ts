import { expect } from 'chai';
import { APP, loginSt, testServer } from './harness.js';

const validate = (ticket: string) => `/cas/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${ticket}`;

describe('docs/protocol.md §5 request-rate limit of the validation endpoints', () => {
  it('over the limit: 429 with Retry-After and a CAS INVALID_REQUEST document; the ticket is not consumed', async () => {
    const server = testServer({ validationRate: { burst: 2, requestsPerSecond: 1 } });
    const st = await loginSt(server);
    for (let i = 0; i < 2; i++) expect((await server.http.get(validate('ST-unknown'))).status).to.equal(400);
    const limited = await server.http.get(validate(st));
    expect(limited.status).to.equal(429);
    expect(limited.headers['retry-after']).to.equal('2');
    expect(limited.text).to.include('<cas:authenticationFailure code="INVALID_REQUEST">Too many requests. Try again later.</cas:authenticationFailure>');
    expect((await server.http.get(`/cas/validate?service=${encodeURIComponent(APP)}&ticket=${st}`)).status).to.equal(429);
    expect(server.tickets.tickets.has(st)).to.equal(true);
  });

  it('without a configured limit, validation is never refused for its rate', async () => {
    const server = testServer();
    for (let i = 0; i < 20; i++) expect((await server.http.get(validate('ST-unknown'))).status).to.equal(400);
  });
});
