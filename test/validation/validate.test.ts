import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { APP, form, login, serviceTicket, startTessera, type Tessera } from '../support/tessera.js';

const ENDPOINTS = ['/serviceValidate', '/proxyValidate', '/p3/serviceValidate', '/p3/proxyValidate'];

// docs/protocol.md §3 — validation endpoints, as CAS clients call them
describe('validation endpoints (docs/protocol.md §3, CAS protocol 3.0)', () => {
  let tessera: Tessera;
  before(async () => {
    tessera = await startTessera();
  });
  after(() => tessera.close());

  async function freshTicket(service = APP): Promise<string> {
    return serviceTicket(tessera.url, await login(tessera.url), service);
  }
  const validate = (path: string, query: string, init: RequestInit = {}) => fetch(`${tessera.url}${path}?${query}`, init);

  for (const path of ENDPOINTS) {
    it(`${path}: the canonical XML success, attributes included`, async () => {
      const st = await freshTicket();
      const response = await validate(path, `service=${encodeURIComponent(APP)}&ticket=${st}`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/xml/);
      const body = await response.text();
      expect(XMLValidator.validate(body)).to.equal(true);
      expect(body).to.match(/^<cas:serviceResponse xmlns:cas="http:\/\/www\.yale\.edu\/tp\/cas">\s*<cas:authenticationSuccess>\s*<cas:user>casuser<\/cas:user>\s*<cas:attributes>/);
      const parsed = new XMLParser({ isArray: (name) => name.startsWith('cas:') && !['cas:serviceResponse', 'cas:authenticationSuccess', 'cas:user', 'cas:attributes'].includes(name) }).parse(body) as {
        'cas:serviceResponse': { 'cas:authenticationSuccess': { 'cas:user': string; 'cas:attributes': Record<string, string[]> } };
      };
      const attributes = parsed['cas:serviceResponse']['cas:authenticationSuccess']['cas:attributes'];
      expect(attributes['cas:memberOf']).to.deep.equal(['staff', 'faculty']);
      expect(attributes['cas:mail']).to.deep.equal(['casuser@example.org']);
      expect(attributes['cas:isFromNewLogin']).to.deep.equal([true]);
      expect(attributes['cas:authenticationDate']![0]).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });
  }

  it('the ticket works once; the second attempt is INVALID_TICKET with status 400 by default', async () => {
    const st = await freshTicket();
    expect((await validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st}`)).status).to.equal(200);
    const again = await validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st}`);
    expect(again.status).to.equal(400);
    const body = await again.text();
    expect(body).to.match(/^<cas:serviceResponse xmlns:cas="http:\/\/www\.yale\.edu\/tp\/cas">\s*<cas:authenticationFailure code="INVALID_TICKET">[^<]+<\/cas:authenticationFailure>\s*<\/cas:serviceResponse>\s*$/);
  });

  it('50 concurrent validations of one ticket: exactly one succeeds', async () => {
    const st = await freshTicket();
    const bodies = await Promise.all(
      Array.from({ length: 50 }, () => validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st}`).then((r) => r.text())),
    );
    expect(bodies.filter((b) => b.includes('authenticationSuccess'))).to.have.length(1);
    expect(bodies.filter((b) => b.includes('INVALID_TICKET'))).to.have.length(49);
  });

  it('a wrong service is INVALID_SERVICE and burns the ticket', async () => {
    const st = await freshTicket();
    const wrong = await validate('/serviceValidate', `service=${encodeURIComponent('https://app.example.org/other')}&ticket=${st}`);
    expect(await wrong.text()).to.include('code="INVALID_SERVICE"');
    const right = await validate('/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st}`);
    expect(await right.text()).to.include('code="INVALID_TICKET"');
  });

  it('parameters in any order, lower-case percent-encoding, unencoded URLs, fragments and case differences', async () => {
    const variants = [
      (st: string) => `ticket=${st}&service=${encodeURIComponent(APP)}`,
      (st: string) => `service=${encodeURIComponent(APP).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}&ticket=${st}`,
      (st: string) => `service=${APP}&ticket=${st}`,
      (st: string) => `service=${encodeURIComponent('HTTPS://APP.EXAMPLE.ORG/home#section')}&ticket=${st}`,
    ];
    for (const variant of variants) {
      const st = await freshTicket();
      const body = await (await validate('/p3/serviceValidate', variant(st))).text();
      expect(body, variant('ST')).to.include('<cas:user>casuser</cas:user>');
    }
  });

  it('missing service or ticket is INVALID_REQUEST', async () => {
    for (const query of ['service=x', 'ticket=ST-1-x', '']) {
      const body = await (await validate('/p3/serviceValidate', query)).text();
      expect(body, query).to.include('code="INVALID_REQUEST"');
    }
  });

  it('renew=true accepts only an ST from a fresh login', async () => {
    const tgt = await login(tessera.url);
    const first = await serviceTicket(tessera.url, tgt);
    const second = await serviceTicket(tessera.url, tgt);
    expect(await (await validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${first}&renew=true`)).text()).to.include('authenticationSuccess');
    expect(await (await validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${second}&renew=true`)).text()).to.include('INVALID_TICKET');
  });

  it("renew=true with rest.newLoginWindowSeconds 0: a TGT's first ST counts only when granted with renew and credentials", async () => {
    const strict = await startTessera({ rest: { newLoginWindowSeconds: 0 } });
    try {
      const tgt = await login(strict.url);
      const strictly = (ticket: string) => fetch(`${strict.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=${ticket}&renew=true`).then((answer) => answer.text());
      expect(await strictly(await serviceTicket(strict.url, tgt))).to.include('INVALID_TICKET');
      const renewed = await fetch(`${strict.url}/v1/tickets/${tgt}`, form({ service: APP, renew: 'true', username: 'casuser', password: 'Mellon' }));
      expect(renewed.status).to.equal(200);
      expect(await strictly(await renewed.text())).to.include('authenticationSuccess');
    } finally {
      await strict.close();
    }
  });

  it('format=JSON gives the JSON document; the Accept header alone never does', async () => {
    const st = await freshTicket();
    const json = await validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st}&format=JSON`);
    expect(json.headers.get('content-type')).to.match(/^application\/json/);
    const body = (await json.json()) as { serviceResponse: { authenticationSuccess: { user: string; attributes: Record<string, string[]> } } };
    expect(body.serviceResponse.authenticationSuccess.user).to.equal('casuser');
    expect(body.serviceResponse.authenticationSuccess.attributes['memberOf']).to.deep.equal(['staff', 'faculty']);
    const failure = (await (await validate('/p3/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st}&format=json`)).json()) as {
      serviceResponse: { authenticationFailure: { code: string; description: string } };
    };
    expect(failure.serviceResponse.authenticationFailure.code).to.equal('INVALID_TICKET');
    const st2 = await freshTicket();
    const xml = await validate('/serviceValidate', `service=${encodeURIComponent(APP)}&ticket=${st2}`, { headers: { accept: 'application/json' } });
    expect(await xml.text()).to.match(/^<cas:serviceResponse/);
  });

  it('CAS 1 /validate: yes\\n<user>\\n, then no\\n\\n', async () => {
    const st = await freshTicket();
    const ok = await validate('/validate', `service=${encodeURIComponent(APP)}&ticket=${st}`);
    expect(ok.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await ok.text()).to.equal('yes\ncasuser\n');
    expect(await (await validate('/validate', `service=${encodeURIComponent(APP)}&ticket=${st}`)).text()).to.equal('no\n\n');
  });

  it('a service without a release policy gets Apereo’s default: the authentication’s attributes, no principal attribute', async () => {
    const st = await freshTicket('https://staff.example.org/x');
    const body = await (await validate('/p3/serviceValidate', `service=${encodeURIComponent('https://staff.example.org/x')}&ticket=${st}`)).text();
    expect(body).to.include('<cas:user>casuser</cas:user>');
    expect(body).to.include('<cas:isFromNewLogin>true</cas:isFromNewLogin>');
    expect(body).to.match(/<cas:authenticationDate>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/cas:authenticationDate>/);
    expect(body).to.not.include('cas:memberOf');
    expect(body).to.not.include('cas:mail');
  });

  describe('protocol.validationFailureStatus: 200', () => {
    let apereo: Tessera;
    before(async () => {
      apereo = await startTessera({ protocol: { validationFailureStatus: 200 } });
    });
    after(() => apereo.close());

    it('answers failures with 200 and the failure document, for clients that treat non-2xx as transport errors', async () => {
      const response = await fetch(`${apereo.url}/p3/serviceValidate?service=${encodeURIComponent(APP)}&ticket=ST-1-unknown`);
      expect(response.status).to.equal(200);
      expect(await response.text()).to.include('code="INVALID_TICKET"');
    });
  });
});
