import { expect } from 'chai';
import { XMLParser } from 'fast-xml-parser';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP, loginSt, testServer, type TestServer } from './harness.js';
import { child, parseSamlResponse, SAML_PROTOCOL, samlRequest, SOAP_ENVELOPE, text } from './saml-documents.js';

function post(server: TestServer, body: string) {
  return server.http.post('/cas/samlValidate').query({ TARGET: APP }).set('Content-Type', 'text/xml').send(body);
}

/** 400 with samlp:Requester, the ticket still unused. */
async function expectMalformed(server: TestServer, st: string, body: string, message = 'Malformed SAML request'): Promise<string> {
  const response = await post(server, body);
  expect(response.status, response.text).to.equal(400);
  const { status } = parseSamlResponse(response.text);
  expect(child(status, 'samlp:StatusCode')).to.deep.equal({ '@_Value': 'samlp:Requester' });
  expect(text(status, 'samlp:StatusMessage')).to.include(message);
  expect(await server.tickets.get(st), 'the ticket must stay unused').not.to.equal(undefined);
  return response.text;
}

describe('Apereo CAS protocol §4 — /samlValidate reads its SOAP request safely', () => {
  let dir = '';
  let secretFile = '';
  const secret = `tessera-secret-${randomUUID()}`;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tessera-xxe-'));
    secretFile = join(dir, 'secret.txt');
    await writeFile(secretFile, secret);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('answers 400 for bodies that are no SOAP 1.1 envelope with one samlp:AssertionArtifact', async () => {
    const server = testServer();
    const st = await loginSt(server);
    const valid = samlRequest(st);
    const bodies = [
      'ST-1-not-xml',
      valid.replace('</SOAP-ENV:Envelope>', ''),
      `${valid}<second/>`,
      valid.replace(SOAP_ENVELOPE, 'http://www.w3.org/2003/05/soap-envelope'),
      valid.replace(`xmlns:samlp="${SAML_PROTOCOL}"`, 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"'),
      valid.replace(/<samlp:AssertionArtifact>[^<]*<\/samlp:AssertionArtifact>/, ''),
      valid.replace(/<samlp:AssertionArtifact>[^<]*<\/samlp:AssertionArtifact>/, '<samlp:AssertionArtifact> </samlp:AssertionArtifact>'),
      valid.replace('</samlp:Request>', `<samlp:AssertionArtifact>${st}</samlp:AssertionArtifact></samlp:Request>`),
    ];
    for (const body of bodies) await expectMalformed(server, st, body);
    const empty = await server.http.post('/cas/samlValidate').query({ TARGET: APP }).set('Content-Type', 'text/xml');
    expect(empty.status).to.equal(400);
    expect((await post(server, valid)).status).to.equal(200);
  });

  it('reads the request as python-cas writes it: XML declaration, line breaks, default namespace on the envelope', async () => {
    const server = testServer();
    const st = await loginSt(server);
    const pythonCas =
      `<?xml version="1.0" encoding="UTF-8"?>\n<Envelope xmlns="${SOAP_ENVELOPE}">\n<Header/>\n<Body>\n` +
      `<samlp:Request xmlns:samlp="${SAML_PROTOCOL}"\nMajorVersion="1"\nMinorVersion="1"\nRequestID="_py"\nIssueInstant="2026-11-21T10:00:00Z">\n` +
      `<samlp:AssertionArtifact>${st}</samlp:AssertionArtifact></samlp:Request>\n</Body>\n</Envelope>`;
    const response = await post(server, pythonCas);
    expect(response.status, response.text).to.equal(200);
    expect(parseSamlResponse(response.text).response['@_InResponseTo']).to.equal('_py');
  });

  it('refuses an external entity (XXE) with 400 without reading the file', async () => {
    const server = testServer();
    const st = await loginSt(server);
    for (const file of [pathToFileURL(secretFile).href, 'file:///etc/hostname']) {
      const xxe = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "${file}">]>${samlRequest(`${st}&xxe;`)}`;
      const answer = await expectMalformed(server, st, xxe, 'Document type declarations are not accepted');
      expect(answer).not.to.include(secret);
    }
    const parameterEntity = `<!DOCTYPE foo [<!ENTITY % p SYSTEM "${pathToFileURL(secretFile).href}"> %p;]>${samlRequest(st)}`;
    expect(await expectMalformed(server, st, parameterEntity)).not.to.include(secret);
  });

  it('refuses internal entity expansion (billion laughs) the same way', async () => {
    const server = testServer();
    const st = await loginSt(server);
    const lol = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>${samlRequest('&lol2;')}`;
    await expectMalformed(server, st, lol);
  });

  it('the XML library itself never resolves an external entity, even with a DTD (defence in depth)', () => {
    const xxe = `<!DOCTYPE r [<!ENTITY xxe SYSTEM "${pathToFileURL(secretFile).href}">]><r>&xxe;</r>`;
    let parsed: string;
    try {
      parsed = JSON.stringify(new XMLParser({ processEntities: true }).parse(xxe, true));
    } catch (error) {
      parsed = String(error);
    }
    expect(parsed).not.to.include(secret);
  });
});
