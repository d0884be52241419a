import { expect } from 'chai';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { casFailureXml, casSuccessXml } from '../src/validation/cas-xml.js';
import { APP, loginSt, QUIET_APP, testServer } from './harness.js';

const NAMESPACE = 'http://www.yale.edu/tp/cas';
const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
  isArray: (_name, path) => typeof path === 'string' && path.startsWith('cas:serviceResponse.cas:authenticationSuccess.cas:attributes.'),
});

interface ParsedSuccess {
  'cas:user': string;
  'cas:attributes'?: Record<string, string[]>;
}

/** Whitespace between elements is layout, not content: the parser keeps it (trimValues off) as `#text`. */
function withoutLayout(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLayout);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).filter(([key, value]) => !(key === '#text' && typeof value === 'string' && value.trim() === ''));
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutLayout(value)]));
}

function parseSuccess(xml: string): ParsedSuccess {
  expect(XMLValidator.validate(xml), xml).to.equal(true);
  const document = withoutLayout(parser.parse(xml)) as { 'cas:serviceResponse': { '@_xmlns:cas': string; 'cas:authenticationSuccess': ParsedSuccess } };
  expect(document['cas:serviceResponse']['@_xmlns:cas']).to.equal(NAMESPACE);
  return document['cas:serviceResponse']['cas:authenticationSuccess'];
}

/** What XML 1.0 can carry: the renderer drops the rest. */
function xmlLegal(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

describe('docs/protocol.md §3 validation — XML documents', () => {
  it('answers success in exactly the canonical shape, application/xml; charset=utf-8', async () => {
    const server = testServer();
    const st = await loginSt(server);
    const response = await server.http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: st });
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.equal('application/xml; charset=utf-8');
    expect(response.text).to.equal(
      [
        `<cas:serviceResponse xmlns:cas="${NAMESPACE}">`,
        '  <cas:authenticationSuccess>',
        '    <cas:user>casuser</cas:user>',
        '    <cas:attributes>',
        '      <cas:memberOf>staff</cas:memberOf>',
        '      <cas:memberOf>faculty</cas:memberOf>',
        '      <cas:isFromNewLogin>true</cas:isFromNewLogin>',
        '      <cas:authenticationDate>2026-11-21T10:00:00Z</cas:authenticationDate>',
        '    </cas:attributes>',
        '  </cas:authenticationSuccess>',
        '</cas:serviceResponse>',
        '',
      ].join('\n'),
    );
  });

  it('omits cas:attributes when the service releases none', async () => {
    const server = testServer();
    const st = await loginSt(server, QUIET_APP);
    const response = await server.http.get('/cas/p3/serviceValidate').query({ service: QUIET_APP, ticket: st });
    expect(response.text).not.to.include('cas:attributes');
    expect(parseSuccess(response.text)).to.deep.equal({ 'cas:user': 'casuser' });
  });

  it('answers failure as <cas:authenticationFailure code="…"> in the same root', async () => {
    const response = await testServer().http.get('/cas/serviceValidate').query({ service: APP, ticket: 'ST-1-unknown' });
    expect(response.headers['content-type']).to.equal('application/xml; charset=utf-8');
    expect(response.text).to.equal(
      `<cas:serviceResponse xmlns:cas="${NAMESPACE}">\n` +
        `  <cas:authenticationFailure code="INVALID_TICKET">Ticket 'ST-1-unknown' not recognized</cas:authenticationFailure>\n` +
        '</cas:serviceResponse>\n',
    );
  });

  it('escapes markup, keeps quotes and unicode in the user and attribute values; drops names that are not NCNames', async () => {
    const user = `<b>&"'ü😀`;
    const server = testServer({
      users: {
        [user]: {
          password: 'pw',
          attributes: {
            markup: ['<script>alert("x")</script>', `a & b ' c`],
            'ünïcødé': ['ŝtåff 𝄞 ½', '\ttab\nline\r\ncrlf'],
            'with-dash.dot_1': ['kept'],
            'bad name': ['dropped'],
            'x:y': ['dropped'],
            '1digit': ['dropped'],
            '<evil>': ['dropped'],
            '': ['dropped'],
            controls: ['a\u0000b\u0001c\uFFFEd\uD800e'],
          },
        },
      },
    });
    const st = await loginSt(server, APP, { username: user, password: 'pw' });
    const response = await server.http.get('/cas/proxyValidate').query({ service: APP, ticket: st });
    expect(response.status).to.equal(200);
    expect(response.text).to.include(`<cas:user>&lt;b&gt;&amp;"'ü😀</cas:user>`);
    const success = parseSuccess(response.text);
    expect(success['cas:user']).to.equal(user);
    const attributes = success['cas:attributes']!;
    expect(Object.keys(attributes)).to.deep.equal(['cas:markup', 'cas:ünïcødé', 'cas:with-dash.dot_1', 'cas:controls', 'cas:isFromNewLogin', 'cas:authenticationDate']);
    expect(attributes['cas:markup']).to.deep.equal(['<script>alert("x")</script>', `a & b ' c`]);
    expect(attributes['cas:ünïcødé']).to.deep.equal(['ŝtåff 𝄞 ½', '\ttab\nline\r\ncrlf']);
    expect(attributes['cas:controls']).to.deep.equal(['abcde']);
  });

  it('escapes the failure description (it echoes the ticket)', async () => {
    const response = await testServer().http.get('/cas/p3/serviceValidate').query({ service: APP, ticket: `<x>&"'` });
    expect(XMLValidator.validate(response.text)).to.equal(true);
    const document = parser.parse(response.text) as { 'cas:serviceResponse': { 'cas:authenticationFailure': { '#text': string; '@_code': string } } };
    expect(document['cas:serviceResponse']['cas:authenticationFailure']).to.deep.equal({
      '#text': `Ticket '<x>&"'' not recognized`,
      '@_code': 'INVALID_TICKET',
    });
  });

  it('property: any unicode user and values give a valid document that reads back as the XML-legal text', () => {
    // Markup characters drawn often: uniform Unicode almost never yields them, and escaping is the point.
    // ASCII too, control characters included: plain ASCII text takes a shorter path through the escaper.
    const unit = fc.oneof(
      fc.constantFrom('"', "'", '<', '>', '&', '\t', '\n', '\r', ']]>', '\u0000'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
    );
    const text = fc.string({ unit, maxLength: 40 });
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 4 }), (user, values) => {
        const success = parseSuccess(casSuccessXml(user, { value: values }));
        expect(success['cas:user']).to.equal(xmlLegal(user));
        expect(success['cas:attributes']?.['cas:value']).to.deep.equal(values.map(xmlLegal));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(text, (description) => {
        expect(XMLValidator.validate(casFailureXml('INVALID_TICKET', description))).to.equal(true);
      }),
    );
  });
});
