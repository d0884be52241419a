import { expect } from 'chai';
import { ExplodingTicketStore } from './fakes.js';
import { APP, createTgt, grantSt, testServer } from './harness.js';
import { child, parseSamlResponse, samlRequest, text } from './saml-documents.js';
import { expectDenied, samlValidate, targetSt } from './saml-exchange.js';

describe('Apereo CAS protocol §4 — /samlValidate refusals', () => {
  it('refuses a replayed, expired, unknown or renew-failing ticket with samlp:Requester / samlp:RequestDenied', async () => {
    const server = testServer();
    const st = await targetSt(server);
    expect((await samlValidate(server, APP, samlRequest(st))).status).to.equal(200);
    const replay = await samlValidate(server, APP, samlRequest(st, '_again'));
    expect(replay.status).to.equal(400);
    expect(replay.headers['content-type']).to.equal('text/xml; charset=utf-8');
    expectDenied(replay.text, `Ticket '${st}' not recognized`);
    expect(parseSamlResponse(replay.text).response['@_InResponseTo']).to.equal('_again');

    const expired = await targetSt(server);
    server.clock.advanceSeconds(11);
    expectDenied((await samlValidate(server, APP, samlRequest(expired))).text, 'not recognized');
    expectDenied((await samlValidate(server, APP, samlRequest('ST-1-unknown'))).text, "Ticket 'ST-1-unknown' not recognized");

    const tgt = await createTgt(server);
    await grantSt(server, tgt);
    const notFresh = await grantSt(server, tgt);
    const renew = await server.http.post('/cas/samlValidate').query({ TARGET: APP, renew: 'true' }).type('text/xml').send(samlRequest(notFresh));
    expectDenied(renew.text, 'renew');
  });

  it('refuses a wrong TARGET (INVALID_SERVICE) and burns the ticket', async () => {
    const server = testServer();
    const st = await targetSt(server);
    const wrong = await samlValidate(server, 'https://app.example.org/other', samlRequest(st));
    expect(wrong.status).to.equal(400);
    expectDenied(wrong.text, 'does not match supplied service');
    expectDenied((await samlValidate(server, APP, samlRequest(st))).text, 'not recognized');
  });

  it('without TARGET: samlp:Requester, and the ticket is left alone', async () => {
    const server = testServer();
    const st = await targetSt(server);
    const response = await samlValidate(server, undefined, samlRequest(st));
    expect(response.status).to.equal(400);
    const { status } = parseSamlResponse(response.text);
    expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Requester' });
    expect(text(status, 'samlp:StatusMessage')).to.equal("The 'TARGET' parameter is required");
    expect(await server.tickets.get(st)).not.to.equal(undefined);
  });

  it('answers 200 for a refused ticket when validationFailureStatus is 200', async () => {
    const server = testServer({ options: { validationFailureStatus: 200 } });
    const response = await samlValidate(server, APP, samlRequest('ST-1-unknown'));
    expect(response.status).to.equal(200);
    expectDenied(response.text, 'not recognized');
  });

  it('a broken ticket store is the responder\'s fault: 500 with samlp:Responder, nothing echoed, reported', async () => {
    const server = testServer({ tickets: new ExplodingTicketStore() });
    const response = await samlValidate(server, APP, samlRequest('ST-1-x'));
    expect(response.status).to.equal(500);
    const { status } = parseSamlResponse(response.text);
    expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Responder' });
    expect(text(status, 'samlp:StatusMessage')).to.equal('The server could not validate the ticket');
    expect(server.events.ofType('server.error')).to.have.length(1);
  });

  it('takes only POST (405, Allow: POST) and only an XML body (415), up to maxBodyBytes (413)', async () => {
    const server = testServer();
    const st = await targetSt(server);
    const get = await server.http.get('/cas/samlValidate').query({ TARGET: APP });
    expect(get.status).to.equal(405);
    expect(get.headers.allow).to.equal('POST');
    expect(child(parseSamlResponse(get.text).status, 'samlp:StatusCode')['@_Value']).to.equal('samlp:Requester');
    const form = await server.http.post('/cas/samlValidate').query({ TARGET: APP }).type('form').send({ ticket: st });
    expect(form.status).to.equal(415);
    const huge = await samlValidate(server, APP, samlRequest(st).replace('<SOAP-ENV:Header/>', `<SOAP-ENV:Header>${'x'.repeat(5000)}</SOAP-ENV:Header>`));
    expect(huge.status).to.equal(413);
    expect(await server.tickets.get(st)).not.to.equal(undefined);
    expect((await server.http.post('/cas/samlValidate').query({ TARGET: APP }).type('application/xml').send(samlRequest(st))).status).to.equal(200);
  });
});
