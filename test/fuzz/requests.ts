import fc from 'fast-check';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

/** What the fuzzer knows of the server under test, so that some requests get past the first checks. */
export interface FuzzWorld {
  readonly basePath: string;
  /** Users with the passwords that log them in. */
  readonly users: readonly { readonly username: string; readonly password: string }[];
  /** Service URLs registered on the server. */
  readonly services: readonly string[];
  /** PEM certificates the x509 module trusts (and one it does not). */
  readonly certificates: readonly string[];
  /** Ticket ids and JWTs the server handed out during the run: live, used or expired. */
  readonly tickets: () => readonly string[];
  /** A current TOTP code of the user who must present one. */
  readonly otpCode: () => string;
}

/** The password of failed logins: the fuzzer's secrets are the users' passwords, this one and the current codes. */
export const WRONG_PASSWORD = 'Wrong-Fuzz-Password';

/** Every HTTP Basic value the fuzzer sends: each user with the right and the wrong password. */
export function basicCredentials(world: Pick<FuzzWorld, 'users'>): string[] {
  return world.users.flatMap((user) => [user.password, WRONG_PASSWORD].map((password) => `Basic ${Buffer.from(`${user.username}:${password}`).toString('base64')}`));
}

/** Every route with the method it answers, so that most requests are shaped for the route they ask. */
const ROUTES: readonly [string, string][] = [
  ['/validate', 'GET'],
  ['/serviceValidate', 'GET'],
  ['/proxyValidate', 'GET'],
  ['/p3/serviceValidate', 'GET'],
  ['/p3/proxyValidate', 'GET'],
  ['/samlValidate', 'POST'],
  ['/v1/tickets', 'POST'],
  ['/v1/tickets/{ticket}', 'GET'],
  ['/v1/tickets/{ticket}', 'POST'],
  ['/v1/tickets/{ticket}', 'DELETE'],
  ['/v1/users', 'POST'],
  ['/v1/services', 'POST'],
  ['/v1/services/add/{ticket}', 'POST'],
  ['/openapi.json', 'GET'],
  ['/nowhere', 'GET'],
];
const ADMIN_ROUTES: readonly [string, string][] = [
  ['/health/live', 'GET'],
  ['/health/ready', 'GET'],
  ['/metrics', 'GET'],
  ['/', 'GET'],
  ['*', 'OPTIONS'],
];
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'M-SEARCH', 'SEARCH', 'QUERY'];
const PARAMETERS = ['service', 'ticket', 'renew', 'format', 'pgtUrl', 'TARGET', 'username', 'token', 'cert', 'gateway', 'method', '__proto__', 'constructor', 'a[b]', 'serviceId', 'name', 'description', 'evaluationOrder', 'enabled', 'ssoEnabled'];
const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'application/x-www-form-urlencoded; charset=latin1',
  'application/x-www-form-urlencoded; charset=utf-16',
  'application/x-www-form-urlencoded; charset=bogus',
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=koi8-r',
  'text/xml',
  'text/xml; charset=utf-8',
  'application/xml',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/vnd.api+json',
  ';;;',
  'application/',
  '*/*',
];
const ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'x-gzip', 'GZIP', 'compress', 'gzip, gzip', 'zstd', ''];

/** Text a parser may trip on: control characters, lone surrogates, percent-encoding gone wrong, huge numbers. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '\u0000', '\uD800', '../../etc/passwd', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', '{"$ne":1}', 'true', 'TRUE', 'yes', '1e309', '-0', ' ', ''),
  fc.constantFrom('https://app.example.org/home', 'https://staff.example.org/x', 'https://jwt.example.org/app', 'http://[::1', 'javascript:alert(1)', 'https://app.example.org/home#frag?x=1'),
);

function ticketLike(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat().map((index) => world.tickets()[index % Math.max(1, world.tickets().length)] ?? 'TGT-1-none'),
    fc.tuple(fc.constantFrom('TGT', 'ST', 'PT', 'PGT', 'tgt', 'XX'), fc.nat(), fc.string({ unit: 'grapheme-ascii', maxLength: 60 })).map(([kind, n, rest]) => `${kind}-${n}-${rest}`),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }).map((text) => `eyJ${text}.eyJ${text}.${text}`),
    nasty,
  );
}

const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('{"__proto__":{"admin":true}}', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]', '{"a":1e99999}'));

/** Any parameter's value; never a password or a current one-time code, which only their own parameters carry. */
function parameterValue(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: nasty },
    { weight: 2, arbitrary: ticketLike(world) },
    { weight: 2, arbitrary: fc.constantFrom(...world.services) },
    { weight: 1, arbitrary: fc.constantFrom(...world.users.map((user) => user.username), 'nobody', ')(uid=*)') },
    { weight: 1, arbitrary: fc.constantFrom(...world.certificates) },
  );
}

/**
 * Parameters as a list, with the known names mostly, so that routes read them; a login (a user's
 * password, perhaps the current code) first in half of them.
 */
function parameters(world: FuzzWorld): fc.Arbitrary<[string, string][]> {
  const name = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PARAMETERS) }, { weight: 1, arbitrary: nasty });
  const login = fc
    .tuple(fc.constantFrom(...world.users), fc.boolean(), fc.boolean())
    .map(([user, rightPassword, withCode]): [string, string][] => [
      ['username', user.username],
      ['password', rightPassword ? user.password : WRONG_PASSWORD],
      ...(withCode ? [['otp', world.otpCode()] as [string, string]] : []),
    ]);
  return fc.tuple(fc.oneof(fc.constant([] as [string, string][]), login), fc.array(fc.tuple(name, parameterValue(world)), { maxLength: 6 })).map(([first, rest]) => [...first, ...rest]);
}

function formOf(fields: readonly [string, string][]): string {
  return fields.map(([key, value]) => `${percentEncoded(key)}=${percentEncoded(value)}`).join('&');
}

/** Percent-encoding of the UTF-8 bytes; unlike encodeURIComponent it takes lone surrogates too. */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

function soapEnvelope(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.tuple(ticketLike(world), fc.constantFrom('', '<?xml version="1.0"?>', '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'), fc.boolean()).map(
    ([ticket, prolog, wellFormed]) =>
      `${prolog}<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body>` +
      `<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_1" IssueInstant="2026-01-01T00:00:00Z">` +
      `<samlp:AssertionArtifact>${ticket.replace(/[<&]/g, '')}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body>${wellFormed ? '</SOAP-ENV:Envelope>' : ''}`,
  );
}

function serviceDefinition(world: FuzzWorld): fc.Arbitrary<string> {
  return fc
    .record(
      {
        '@class': fc.constantFrom('org.apereo.cas.services.CasRegisteredService', 'org.apereo.cas.services.RegexRegisteredService', 'java.lang.Runtime', ''),
        serviceId: fc.oneof(fc.constantFrom('^https://new\\.example\\.org/.*', '((', '.*', '(a+)+$'), nasty),
        name: nasty,
        id: fc.oneof(fc.integer(), fc.double(), fc.string()),
        evaluationOrder: fc.oneof(fc.integer(), fc.string()),
        accessStrategy: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant({ '@class': 'org.apereo.cas.services.DefaultRegisteredServiceAccessStrategy', enabled: 'maybe', requiredAttributes: { memberOf: ['java.util.HashSet', [world.users[0]?.username ?? 'x']] } })),
        attributeReleasePolicy: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: [] },
    )
    .map((definition) => JSON.stringify(definition));
}

function body(world: FuzzWorld): fc.Arbitrary<{ type?: string; text: Buffer | string }> {
  return fc.oneof(
    { weight: 4, arbitrary: parameters(world).map((fields) => ({ type: 'application/x-www-form-urlencoded', text: formOf(fields) })) },
    { weight: 2, arbitrary: parameters(world).map((fields) => ({ type: 'application/json', text: JSON.stringify(Object.fromEntries(fields)) })) },
    { weight: 1, arbitrary: jsonValue.map((value) => ({ type: 'application/json', text: typeof value === 'string' ? value : JSON.stringify(value) })) },
    { weight: 2, arbitrary: soapEnvelope(world).map((text) => ({ type: 'text/xml', text })) },
    { weight: 2, arbitrary: serviceDefinition(world).map((text) => ({ type: 'application/json', text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ text: Buffer.from(bytes) })) },
    { weight: 1, arbitrary: fc.constant({ text: '' }) },
  );
}

function encoded(text: Buffer | string, encoding: string, honest: boolean): Buffer {
  const bytes = Buffer.from(text);
  if (!honest) return bytes;
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'GZIP') return gzipSync(bytes);
  if (encoding === 'deflate') return deflateSync(bytes);
  if (encoding === 'br') return brotliCompressSync(bytes);
  return bytes;
}

/** A value in one request of four: each oddity alone, so that most requests get past the first checks. */
function sometimes<T>(values: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: values });
}

/** A request as sent: `complete` is false when it announces more body than it has. */
export interface RawRequest {
  readonly bytes: Buffer;
  readonly complete: boolean;
}

/** One HTTP/1.1 request as bytes: mostly well framed with odd content, sometimes odd framing itself. */
export function rawRequests(world: FuzzWorld): fc.Arbitrary<RawRequest> {
  const routes = [...ROUTES.map(([path, method]): [string, string] => [`${world.basePath}${path}`, method]), ...ADMIN_ROUTES];
  // A ticket in the path percent-encoded, or as it comes (a request line broken by it is fine too).
  const route = fc.tuple(fc.constantFrom(...routes), ticketLike(world), fc.boolean()).map(([[path, method], ticket, raw]) => ({ path: path.replace('{ticket}', () => (raw ? ticket : percentEncoded(ticket))), method }));
  const otherMethod = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 8 }) });
  const header = (name: string, values: fc.Arbitrary<string>) => sometimes(values.map((value): [string, string] => [name, value]));
  const basic = fc.constantFrom(...basicCredentials(world));
  return fc
    .record({
      route,
      otherMethod: sometimes(otherMethod),
      query: parameters(world),
      body: body(world),
      contentType: sometimes(fc.constantFrom(...CONTENT_TYPES)),
      encoding: sometimes(fc.constantFrom(...ENCODINGS)),
      honestEncoding: fc.boolean(),
      framing: fc.oneof({ weight: 8, arbitrary: fc.constant('length') }, { weight: 2, arbitrary: fc.constant('chunked') }, { weight: 1, arbitrary: fc.constantFrom('short', 'long', 'both', 'none') }),
      headers: fc.tuple(
        header('Accept', fc.oneof(fc.constantFrom('text/plain', 'application/json', '*/*', 'text/html;q=0.9, */*;q=0.1'), nasty)),
        header('Authorization', fc.oneof(basic, fc.constantFrom('Basic', 'Basic !!!', 'Basic Og==', 'Bearer x', 'Basic ' + Buffer.from('\u0000:\uD800').toString('base64')))),
        header('token', fc.constantFrom('true', 'TRUE', 'false', 'yes', '')),
        header('X-Forwarded-For', fc.constantFrom('203.0.113.7', '1.1.1.1, 2.2.2.2', 'unknown', '::ffff:10.0.0.1', '', '999.999.999.999')),
        header('X-Forwarded-Host', fc.constantFrom('evil.example.com', '', 'a b', 'host:99999')),
        header('X-Forwarded-Proto', fc.constantFrom('https', 'gopher', '')),
        header('ssl_client_cert', fc.oneof(fc.constantFrom(...world.certificates).map((pem) => pem.replace(/\n/g, ' ')), fc.constantFrom('(null)', '-----BEGIN CERTIFICATE----- AAAA -----END CERTIFICATE-----', '%zz'))),
        header('Expect', fc.constantFrom('100-continue', 'bogus')),
        header('Host', fc.constantFrom('', 'a b', 'x'.repeat(300), '[::1]:99999', 'sso.example.org')),
      ),
      // One request in eight carries a header line the parser refuses.
      garbage: fc.oneof(
        { weight: 7, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('Bad Header Line', 'X-A : b', 'X-Ok: \u0000', ': no-name', 'Transfer-Encoding: gzip')) },
      ),
    })
    .map((request) => {
      const query = request.query.length > 0 ? `?${formOf(request.query)}` : '';
      const payload = encoded(request.body.text, request.encoding ?? 'identity', request.honestEncoding);
      const headers: [string, string][] = [['Host', 'fuzz.example.org'], ...request.headers.filter((entry) => entry !== undefined), ['Connection', 'close']];
      const contentType = request.contentType ?? request.body.type;
      if (contentType !== undefined) headers.push(['Content-Type', contentType]);
      if (request.encoding !== undefined) headers.push(['Content-Encoding', request.encoding]);
      let framed: Buffer = payload;
      if (request.framing === 'length' || request.framing === 'both') headers.push(['Content-Length', String(payload.length)]);
      if (request.framing === 'short') headers.push(['Content-Length', String(Math.max(0, payload.length - 3))]);
      if (request.framing === 'long') headers.push(['Content-Length', String(payload.length + 7)]);
      if (request.framing === 'chunked' || request.framing === 'both') {
        headers.push(['Transfer-Encoding', 'chunked']);
        framed = Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]);
      }
      const head = [`${request.otherMethod ?? request.route.method} ${request.route.path}${query} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`), ...(request.garbage === undefined ? [] : [request.garbage])];
      return { bytes: Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), framed]), complete: request.framing !== 'long' };
    });
}
