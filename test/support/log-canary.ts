import { Writable } from 'node:stream';

/**
 * The log canary: every line the servers under test write (application log, audit trail, the output
 * of servers run as processes) is kept here, and so is every secret the suite hands them: passwords
 * and TOTP secrets of the configurations, passwords, one-time codes and Authorization values of the
 * requests, ticket ids and JWTs of the answers. A final check (log-canary-hooks.ts) fails the run when
 * any line holds any of them, or anything shaped like a whole ticket id or a JWT. Secrets are learnt
 * where requests are made (the wrapped fetch, the raw-socket and HTTPS helpers, startTessera), so a
 * new test is guarded without doing anything.
 */

export interface Source {
  readonly name: string;
  readonly lines: () => readonly string[];
}

export interface Leak {
  readonly source: string;
  readonly what: string;
  /** Where in its line, the secret masked but for its first characters. */
  readonly excerpt: string;
}

const sources: Source[] = [];
const secrets = new Map<string, string>();
/** Request parameters whose values are secrets; configurations add their `otp.parameter`. */
const secretParameters = new Set(['password', 'otp', 'client_secret', 'client_assertion', 'code', 'code_verifier', 'access_token', 'refresh_token', 'id_token', 'id_token_hint', 'token', 'logout_token']);
/** Keys of a configuration whose values are secrets. */
const SECRET_SETTINGS = new Set(['password', 'bindPassword', 'otpSecret', 'signingKey', 'encryptionKey', 'clientSecret']);
/** Fields of an answer (an OAuth token response) and parameters of a Location (a redirect with a code) that hold secrets. */
const SECRET_ANSWER_FIELDS = ['access_token', 'refresh_token', 'id_token', 'code'];

/** Shorter values (a wrong password `x` or `nope`) would be found in lines by chance (`https://nope.example.net/`). */
const SHORTEST_SECRET = 5;
const LONGEST_PROBE = 64;
/** The shapes no line may hold whatever the suite remembered: what servers run as processes hand out too. */
const TICKET_ID = /\b(?:TGT|ST|PT|PGT)-\d+-[A-Za-z0-9-]{8,}/;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_.-]*/;

/** A stream keeping each line written to it, in `lines`, guarded by the canary under `name`. */
export function capturedLines(name: string): [string[], Writable] {
  const kept: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      kept.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  sources.push({ name, lines: () => kept });
  return [kept, stream];
}

/** Output read at the end of the run, e.g. a child process's stdout and stderr. */
export function guardOutput(name: string, text: () => string): void {
  sources.push({ name, lines: () => text().split('\n') });
}

export function rememberSecret(value: string, what: string): void {
  // A huge value (a body-size test's) leaks through its beginning: that is what is looked for.
  const probe = value.length > LONGEST_PROBE ? value.slice(0, LONGEST_PROBE) : value;
  if (probe.length >= SHORTEST_SECRET && !secrets.has(probe)) secrets.set(probe, what);
}

/** The secrets of a configuration: passwords, TOTP secrets, token keys; and the name of its OTP parameter. */
export function rememberConfig(config: unknown): void {
  walk(config, (key, value) => {
    if (typeof value !== 'string') return;
    if (SECRET_SETTINGS.has(key)) rememberSecret(value, `the setting ${key}`);
    if (key === 'parameter') secretParameters.add(value);
  });
}

/** The secrets a request carries: secret parameters of its query and body, its Authorization value. */
export function rememberRequest(url: string, headers: Iterable<[string, string]>, body: string | undefined): void {
  const parameters = new URLSearchParams(new URL(url, 'http://x').search);
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'authorization') rememberAuthorization(value);
  }
  if (body !== undefined) {
    for (const [name, value] of new URLSearchParams(body)) parameters.append(name, value);
    for (const [name, value] of jsonFields(body)) parameters.append(name, value);
  }
  for (const [name, value] of parameters) {
    if (secretParameters.has(name)) rememberSecret(value, `the request parameter ${name}`);
  }
}

/** The secrets a raw HTTP/1.1 request carries (headers, then a form or JSON body). */
export function rememberRawRequest(text: string): void {
  for (const request of text.split(/(?=\b(?:GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS) \/)/)) {
    const [head = '', body] = request.split('\r\n\r\n', 2);
    const [requestLine = '', ...headerLines] = head.split('\r\n');
    const headers = headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as [string, string];
    });
    rememberRequest(requestLine.split(' ')[1] ?? '/', headers, body);
  }
}

/** Ticket ids and JWTs an answer hands out, in its body or its Location. */
export function rememberAnswer(body: string, location: string | null | undefined): void {
  for (const text of [body, location ?? '']) {
    for (const [id] of text.matchAll(new RegExp(TICKET_ID, 'g'))) {
      rememberSecret(id, 'a ticket id');
      // The random part alone is as good as the whole id.
      rememberSecret(id.replace(/^[A-Z]+-\d+-/, '').replace(/-[A-Za-z0-9]{1,16}$/, ''), 'the random part of a ticket id');
    }
    for (const [jwt] of text.matchAll(new RegExp(JWT, 'g'))) rememberSecret(jwt, 'a JWT');
  }
  for (const [name, value] of jsonFields(body)) if (SECRET_ANSWER_FIELDS.includes(name)) rememberSecret(value, `the answer's ${name}`);
  if (location) {
    for (const [name, value] of new URL(location, 'http://x').searchParams) if (SECRET_ANSWER_FIELDS.includes(name)) rememberSecret(value, `the ${name} of a redirect`);
  }
}

function rememberAuthorization(value: string): void {
  rememberSecret(value, 'an Authorization value');
  const [scheme = '', credentials = ''] = value.split(/\s+/, 2);
  rememberSecret(credentials, 'the credentials of an Authorization value');
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    rememberSecret(decoded.slice(decoded.indexOf(':') + 1), 'a password of HTTP Basic credentials');
  }
}

function jsonFields(body: string): [string, string][] {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return [];
    return Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  } catch {
    return [];
  }
}

function walk(value: unknown, visit: (key: string, value: unknown) => void): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    visit(key, item);
    walk(item, visit);
  }
}

/** How many lines and secrets the check covers. */
export function coverage(): { sources: number; lines: number; secrets: number } {
  return { sources: sources.length, lines: sources.reduce((sum, source) => sum + source.lines().length, 0), secrets: secrets.size };
}

/** Every leak in the lines kept so far, of the secrets remembered so far (see findLeaks). */
export function leaks(): Leak[] {
  return findLeaks(sources, secrets);
}

/**
 * Every line of `sources` holding one of `secrets` (standing alone, not inside a longer word or
 * number), a whole ticket id or a JWT. Buffers serialized as JSON (`{"type":"Buffer","data":[…]}`)
 * are read as the text they hold. Each source is searched as one text, once per secret.
 */
export function findLeaks(sources: readonly Source[], secrets: ReadonlyMap<string, string>): Leak[] {
  const shapes = [
    { what: 'a whole ticket id', pattern: new RegExp(TICKET_ID, 'g'), words: [] },
    { what: 'a JWT', pattern: new RegExp(JWT, 'g'), words: [] },
  ];
  const checks = [...secrets].map(([secret, what]) => {
    const whole = secret.length < LONGEST_PROBE;
    const pattern = new RegExp(`(?<![A-Za-z0-9])${escape(secret)}${whole ? '(?![A-Za-z0-9])' : ''}`, 'g');
    // A probe cut short may end inside a longer word of the line: its last word is not required.
    return { what, pattern, words: whole ? wordsOf(secret) : wordsOf(secret).slice(0, -1) };
  });
  const found: Leak[] = [];
  for (const source of sources) {
    const text = source.lines().map(withBuffersDecoded).join('\n');
    // A secret standing alone in the text has each of its whole words there as a whole word too: only
    // those secrets are searched for, which keeps a run with a fuzzing server's many lines quick.
    const words = new Set(wordsOf(text));
    for (const { what, pattern, words: required } of [...shapes, ...checks]) {
      if (!required.every((word) => words.has(word))) continue;
      for (const match of text.matchAll(pattern)) found.push({ source: source.name, what, excerpt: excerptAround(text, match.index, match[0].length) });
    }
  }
  return found;
}

function wordsOf(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

/** The secret masked, in as much of its line as shows where it is. */
function excerptAround(text: string, index: number, length: number): string {
  const lineStart = text.lastIndexOf('\n', index) + 1;
  const lineEnd = text.indexOf('\n', index);
  const from = Math.max(lineStart, index - 160);
  const to = Math.min(lineEnd < 0 ? text.length : lineEnd, index + length + 80);
  return `${from > lineStart ? '…' : ''}${text.slice(from, index)}«${text.slice(index, index + 3)}…»${text.slice(index + length, to)}`;
}

/** A line with the text of each JSON-serialized Buffer in it appended, line breaks shown as ⏎. */
function withBuffersDecoded(line: string): string {
  if (!line.includes('"type":"Buffer"')) return line;
  const decoded = [...line.matchAll(/"type":"Buffer","data":\[([\d,]*)\]/g)].map((match) => Buffer.from(match[1]!.split(',').filter(Boolean).map(Number)).toString('latin1'));
  return [line, ...decoded.map((text) => `⟨Buffer: ${text.replace(/\r?\n/g, '⏎')}⟩`)].join(' ');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
