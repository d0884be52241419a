import { expect } from 'chai';
import { tgtCreatedPage } from '../../../src/modules/rest/tgt-created-page.js';
import { ADMIN_APP, APP, CASUSER, testServer, UNREGISTERED } from '../../harness.js';

const TGT_ID = /^TGT-\d+-[A-Za-z0-9-]+-test$/;

describe('docs/protocol.md §3 POST /v1/tickets — create a TGT', () => {
  it('answers 201 with Location = absolute request URL + / + TGT id, and stores the TGT', async () => {
    const server = testServer({ options: { allowedHosts: ['sso.example.org'] } });
    const response = await server.http.post('/cas/v1/tickets').set('Host', 'sso.example.org').type('form').send(CASUSER);
    expect(response.status).to.equal(201);
    const location = response.headers.location as string;
    expect(location).to.match(/^http:\/\/sso\.example\.org\/cas\/v1\/tickets\/TGT-/);
    const id = location.slice(location.lastIndexOf('/') + 1);
    expect(id).to.match(TGT_ID);
    expect((await server.tickets.get(id))?.kind).to.equal('TGT');
  });

  it('leaves the query string out of Location and never doubles the slash', async () => {
    const server = testServer({ options: { allowedHosts: ['sso.example.org'] } });
    const response = await server.http.post('/cas/v1/tickets/?lang=en').set('Host', 'sso.example.org').type('form').send(CASUSER);
    expect(response.status).to.equal(201);
    expect(response.headers.location).to.match(/^http:\/\/sso\.example\.org\/cas\/v1\/tickets\/TGT-[^/?]+$/);
  });

  describe('body by Accept', () => {
    const htmlAccepts: Record<string, string | undefined> = {
      missing: undefined,
      blank: '  ',
      '*/*': '*/*',
      'text/html first': ' text/html,application/xhtml+xml',
      'browser default': 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    };
    for (const [label, accept] of Object.entries(htmlAccepts)) {
      it(`Accept ${label} → the text/html form page whose action is the Location`, async () => {
        const server = testServer();
        const post = server.http.post('/cas/v1/tickets').type('form');
        if (accept !== undefined) void post.set('Accept', accept);
        // superagent sends no Accept unless told; `missing` really is missing.
        const response = await post.send(CASUSER);
        expect(response.status).to.equal(201);
        expect(response.headers['content-type']).to.match(/^text\/html/);
        const location = response.headers.location as string;
        expect(response.text).to.equal(
          '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"><html><head><title>201 CREATED</title></head><body>' +
            `<h1>TGT Created</h1><form action="${location}" method="POST">Service:<input type="text" name="service" value="">` +
            '<br><input type="submit" value="Submit"></form></body></html>',
        );
        expect(/action="[^"]*\/(TGT-[^"]+)"/.exec(response.text)?.[1]).to.match(TGT_ID);
      });
    }

    for (const accept of ['application/json', 'text/plain', 'application/x-www-form-urlencoded, text/plain', 'application/json, */*']) {
      it(`Accept ${accept} → the bare TGT id as text/plain`, async () => {
        const server = testServer();
        const response = await server.http.post('/cas/v1/tickets').set('Accept', accept).type('form').send(CASUSER);
        expect(response.status).to.equal(201);
        expect(response.headers['content-type']).to.match(/^text\/plain/);
        expect(response.text).to.match(TGT_ID);
        expect(response.headers.location).to.match(new RegExp(`/cas/v1/tickets/${response.text}$`));
      });
    }

    it('HTML-escapes the Location inside the form action', () => {
      expect(tgtCreatedPage('http://a"b<c>/cas/v1/tickets/TGT-1')).to.include('action="http://a&quot;b&lt;c&gt;/cas/v1/tickets/TGT-1"');
    });
  });

  describe('Location behind a proxy', () => {
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'cas.example.org' };

    it('ignores X-Forwarded-* unless the proxy is trusted', async () => {
      const server = testServer({ options: { allowedHosts: ['internal:8080', 'cas.example.org'] } });
      const response = await server.http.post('/cas/v1/tickets').set('Host', 'internal:8080').set(forwarded).type('form').send(CASUSER);
      expect(response.headers.location).to.match(/^http:\/\/internal:8080\/cas\/v1\/tickets\/TGT-/);
    });

    it('honours X-Forwarded-Proto and -Host with trustProxy', async () => {
      const server = testServer({ options: { trustProxy: true, allowedHosts: ['internal:8080', 'cas.example.org'] } });
      const response = await server.http.post('/cas/v1/tickets').set('Host', 'internal:8080').set(forwarded).type('form').send(CASUSER);
      expect(response.headers.location).to.match(/^https:\/\/cas\.example\.org\/cas\/v1\/tickets\/TGT-/);
    });
  });

  describe('Location and the request host', () => {
    const login = (server: ReturnType<typeof testServer>, headers: Record<string, string>) => server.http.post('/cas/v1/tickets').set(headers).set('Accept', 'text/plain').type('form').send(CASUSER);

    it('with publicUrl: from it and the base path, whatever Host and X-Forwarded-* say', async () => {
      const server = testServer({ options: { trustProxy: true, publicUrl: 'https://cas.example.org' } });
      const response = await login(server, { Host: 'evil.example.net', 'X-Forwarded-Host': 'evil.example.net', 'X-Forwarded-Proto': 'http' });
      expect(response.status).to.equal(201);
      expect(response.headers.location).to.equal(`https://cas.example.org/cas/v1/tickets/${response.text}`);
    });

    it('without it: a name alone allows any port, a name with a port that port only; case does not matter', async () => {
      const server = testServer({ options: { allowedHosts: ['cas.example.org', 'internal:8080', '[2001:db8::1]'] } });
      for (const host of ['cas.example.org', 'CAS.Example.org:8443', 'internal:8080', '[2001:db8::1]:80']) {
        const response = await login(server, { Host: host });
        expect(response.status, host).to.equal(201);
        expect(response.headers.location, host).to.equal(`http://${host.toLowerCase()}/cas/v1/tickets/${response.text}`);
      }
      for (const host of ['internal', 'internal:8081', 'cas.example.org.evil.net', 'evil.net', '[2001:db8::2]', 'a"b<c>']) {
        const response = await login(server, { Host: host });
        expect(response.status, host).to.equal(400);
        expect(response.headers.location, host).to.equal(undefined);
      }
      expect(server.tickets.tickets.size).to.equal(4);
    });

    it('without it, behind a trusted proxy: the forwarded host is checked the same way, and the scheme must be http or https', async () => {
      const server = testServer({ options: { trustProxy: true, allowedHosts: ['cas.example.org'] } });
      expect((await login(server, { Host: 'evil.net', 'X-Forwarded-Host': 'cas.example.org', 'X-Forwarded-Proto': 'https' })).status).to.equal(201);
      expect((await login(server, { Host: 'cas.example.org', 'X-Forwarded-Host': 'evil.net' })).status).to.equal(400);
      const scheme = await login(server, { Host: 'cas.example.org', 'X-Forwarded-Proto': 'javascript' });
      expect(scheme.status).to.equal(400);
      expect(scheme.text).to.equal('The forwarded scheme is neither http nor https.');
    });
  });

  describe('failures', () => {
    it('no credentials extracted → 400 text/plain, nothing stored', async () => {
      const server = testServer();
      for (const body of [{}, { username: 'casuser' }, { username: 'casuser', password: '   ' }, { username: ' ', password: 'Mellon' }]) {
        const response = await server.http.post('/cas/v1/tickets').type('form').send(body);
        expect(response.status).to.equal(400);
        expect(response.headers['content-type']).to.match(/^text\/plain/);
        expect(response.text).to.match(/credentials/i);
      }
      expect(server.tickets.tickets.size).to.equal(0);
    });

    it('an empty body → 400 (no credentials)', async () => {
      const response = await testServer().http.post('/cas/v1/tickets');
      expect(response.status).to.equal(400);
    });

    it('bad credentials → 401 application/json {"authentication_exceptions":[...]} without the password', async () => {
      const server = testServer();
      const response = await server.http.post('/cas/v1/tickets').type('form').send({ username: 'casuser', password: 'wrong-secret' });
      expect(response.status).to.equal(401);
      expect(response.headers['content-type']).to.match(/^application\/json/);
      expect(response.body).to.deep.equal({ authentication_exceptions: ['Authentication failed: invalid credentials.'] });
      expect(response.text).not.to.include('wrong-secret');
      expect(server.tickets.tickets.size).to.equal(0);
    });

    it('rest.revision earlier answers bad credentials with 400 and the same JSON', async () => {
      const server = testServer({ restRevision: 'earlier' });
      const response = await server.http.post('/cas/v1/tickets').type('form').send({ username: 'casuser', password: 'nope' });
      expect(response.status).to.equal(400);
      expect(response.body).to.deep.equal({ authentication_exceptions: ['Authentication failed: invalid credentials.'] });
    });

    it('an unregistered service → 403; a service the principal may not use → 401', async () => {
      const server = testServer();
      const unregistered = await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, service: UNREGISTERED });
      expect(unregistered.status).to.equal(403);
      expect(unregistered.headers['content-type']).to.match(/^text\/plain/);
      const forbidden = await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, service: ADMIN_APP });
      expect(forbidden.status).to.equal(401);
      expect(forbidden.body).to.deep.equal({ authentication_exceptions: ['Service access denied due to missing privileges.'] });
      expect(server.tickets.tickets.size).to.equal(0);
    });

    it('a registered service the principal may use → 201; a blank service counts as none', async () => {
      const server = testServer();
      expect((await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, service: APP })).status).to.equal(201);
      expect((await server.http.post('/cas/v1/tickets').type('form').send({ ...CASUSER, service: ' ' })).status).to.equal(201);
    });

    it('GET /v1/tickets → 405 with Allow: POST', async () => {
      const response = await testServer().http.get('/cas/v1/tickets');
      expect(response.status).to.equal(405);
      expect(response.headers.allow).to.equal('POST');
      expect(response.headers['content-type']).to.match(/^text\/plain/);
    });
  });
});
