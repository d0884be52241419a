import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { ticketFingerprint } from '@tessera/core';
import { buildContainer, createAuditLogger, createLogger, LoggingEventSink, moduleEvents, parseConfig, Redaction, redactedText, secretParameterNames, writeEventLine, KEYS } from '@tessera/cli-server';
import { jsonLines } from './json-lines.js';

function capture() {
  const { lines, stream } = jsonLines();
  return { lines, logger: createLogger('info', stream) };
}

const TGT = 'TGT-12-kM3tQ9zF8wXyLp2VbN7cR4sD1aE6gH0jU5iO8pYqWe-node1';

// developers' guide — JSON logs of the domain events, no password and no whole ticket id
describe('logging', () => {
  it('each domain event is one JSON line, at a level that fits it', () => {
    const { lines, logger } = capture();
    const sink = new LoggingEventSink(logger, moduleEvents());
    sink.emit({ type: 'ticket.created', kind: 'TGT', ticket: ticketFingerprint(TGT), principal: 'casuser' });
    sink.emit({ type: 'authentication.failed', credentialIds: ['casuser'], credentialTypes: ['usernamePassword'], handlers: ['config-users'], reasons: ['Invalid credentials.'] });
    sink.emit({ type: 'ticket.validation.failed', ticket: 'ST-3#abc', code: 'INVALID_TICKET', service: 'https://app' });
    expect(lines.map((line) => [line['level'], line['event']])).to.deep.equal([
      ['info', 'ticket.created'],
      ['warn', 'authentication.failed'],
      ['warn', 'ticket.validation.failed'],
    ]);
    expect(lines[0]).to.include({ ticket: ticketFingerprint(TGT), principal: 'casuser', kind: 'TGT' });
    expect(lines[1]).to.deep.include({ credentialIds: ['casuser'], reasons: ['Invalid credentials.'] });
  });

  it('server.error logs the error with its stack, ticket ids replaced by fingerprints', () => {
    const { lines, logger } = capture();
    new LoggingEventSink(logger, moduleEvents()).emit({ type: 'server.error', context: 'POST /v1/tickets/:tgt', error: new TypeError(`cannot read ticket ${TGT}`) });
    const [line] = lines;
    expect(line).to.include({ level: 'error', event: 'server.error', context: 'POST /v1/tickets/:tgt' });
    const err = line!['err'] as Record<string, string>;
    expect(err['type']).to.equal('TypeError');
    expect(err['message']).to.equal(`cannot read ticket ${ticketFingerprint(TGT)}`);
    expect(err['stack']).to.match(/TypeError: cannot read ticket TGT-12#[0-9a-f]{12}\n\s+at /);
    expect(JSON.stringify(lines)).to.not.include(TGT.split('-')[2]);
  });

  it('password fields are redacted and ticket ids scrubbed wherever they appear', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'Mellon',
        user: { password: 'Mellon', passwordHash: '$argon2id$x' },
        credentials: [{ password: 'Mellon' }],
        deep: { request: { form: { password: 'Mellon' }, headers: { authorization: 'Basic Y2FzdXNlcjpNZWxsb24=' } } },
        url: `/cas/v1/tickets/${TGT}`,
      },
      `granted by ${TGT}`,
    );
    const text = JSON.stringify(lines);
    expect(text).to.not.include('Mellon');
    expect(text).to.not.include('Y2FzdXNlcjpNZWxsb24=');
    expect(text).to.not.include('$argon2id$x');
    expect(text).to.not.include(TGT);
    expect(lines[0]).to.include({ password: '[redacted]', url: `/cas/v1/tickets/${ticketFingerprint(TGT)}`, msg: `granted by ${ticketFingerprint(TGT)}` });
  });

  it('an error reaches a line only as its type, code, message, stack and causes, each text redacted', () => {
    const { lines, logger } = capture();
    const rawPacket = Buffer.from('POST /cas/v1/tickets HTTP/1.1\r\nAuthorization: Basic Y2FzdXNlcjpNZWxsb24=\r\n\r\nusername=casuser&password=Mellon');
    const parserError = Object.assign(new Error('Parse Error: Invalid header token'), { code: 'HPE_INVALID_HEADER_TOKEN', rawPacket, bytesParsed: 90, reason: 'Invalid header token' });
    const cause = Object.assign(new SyntaxError(`Unexpected token 'u', "username=casuser&password=Mellon" is not valid JSON`), { body: 'password=Mellon', request: { headers: { cookie: 'sid=1' } } });
    const wrapped = Object.assign(new Error(`bind as ${TGT} refused: Authorization: Bearer eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJjYXN1c2VyIn0.c2lnbmF0dXJl`, { cause }), { config: { bindPassword: 'Mellon' } });
    new LoggingEventSink(logger, moduleEvents()).emit({ type: 'server.error', context: 'POST /v1/tickets', error: parserError });
    new LoggingEventSink(logger, moduleEvents()).emit({ type: 'readiness.failed', component: 'ldap', reason: 'unavailable', error: wrapped });
    logger.error(wrapped);
    logger.warn({ deep: { a: { b: { c: { d: { e: { f: { password: 'Mellon' } } } } } } }, packet: rawPacket }, 'odd shapes');
    const text = JSON.stringify(lines);
    for (const secret of ['Mellon', 'Y2FzdXNlcjpNZWxsb24', 'eyJhbGciOiJIUzUxMiJ9', 'c2lnbmF0dXJl', TGT, 'sid=1', 'rawPacket', 'bytesParsed', '"data":[']) expect(text).to.not.include(secret);
    const [server, readiness, alone, odd] = lines;
    expect(Object.keys(server!['err'] as object)).to.deep.equal(['type', 'message', 'code', 'stack']);
    expect(server!['err']).to.include({ type: 'Error', message: 'Parse Error: Invalid header token', code: 'HPE_INVALID_HEADER_TOKEN' });
    const error = readiness!['error'] as Record<string, unknown>;
    expect(Object.keys(error)).to.deep.equal(['type', 'message', 'stack', 'cause']);
    expect(error['message']).to.equal(`bind as ${ticketFingerprint(TGT)} refused: Authorization: [redacted]`);
    expect(error['cause']).to.deep.include({ type: 'SyntaxError', message: `Unexpected token 'u', "username=casuser&password=[redacted]" is not valid JSON` });
    expect(alone).to.include({ msg: error['message'] });
    expect(alone!['err']).to.deep.equal(error);
    expect(odd).to.deep.include({ packet: `(${rawPacket.length} bytes)`, msg: 'odd shapes' });
  });

  it('the bindings of child loggers, and of theirs, pass the same redaction', () => {
    const { lines, logger } = capture();
    logger.child({ request: { authorization: 'Basic Y2FzdXNlcjpNZWxsb24=', url: `/cas/v1/tickets/${TGT}` } }).child({ password: 'Mellon' }).info('child line');
    expect(JSON.stringify(lines)).to.not.include('Y2FzdXNlcjpNZWxsb24').and.not.include(TGT).and.not.include('Mellon');
    expect(lines[0]).to.deep.include({ request: { authorization: '[redacted]', url: `/cas/v1/tickets/${ticketFingerprint(TGT)}` }, password: '[redacted]', msg: 'child line' });
  });

  it("a server's lines hold no value of a secret parameter its modules declare: the otp code renamed to `code`, as a key, in a text, an error, a child's bindings, an event line", () => {
    const config = parseConfig({ modules: ['rest', 'otp'], otp: { parameter: 'code' } });
    expect(secretParameterNames(config)).to.have.members(['password', 'code']);
    const redaction = new Redaction(secretParameterNames(config));
    const { lines, stream } = jsonLines();
    const logger = createLogger('info', stream, redaction);
    const form = 'username=casuser&password=Mellon&code=913752';
    logger.info({ request: { parameters: { username: 'casuser', code: '913752' } } }, `refused ${form}`);
    logger.child({ sent: { Code: '913752' } }).warn(new SyntaxError('Unexpected token } in JSON at position 40: {"username":"casuser","code":"913752"}'));
    writeEventLine(logger, 'warn', { event: 'authentication.failed', body: { code: '913752' } }, 'authentication.failed');
    const audit = jsonLines();
    createAuditLogger(audit.stream, 'node1', redaction).info({ details: { code: '913752' } }, 'audit');
    expect(lines).to.have.length(3);
    expect(JSON.stringify([...lines, ...audit.lines])).to.not.include('913752');
    expect(lines[0]).to.deep.include({ request: { parameters: { username: 'casuser', code: '[redacted]' } }, msg: 'refused username=casuser&password=[redacted]&code=[redacted]' });
    // Another server, whose otp parameter keeps its default name, keeps a `code` field (a parser's error code) readable.
    const other = jsonLines();
    createLogger('info', other.stream, new Redaction(secretParameterNames(parseConfig({ modules: ['rest', 'otp'] })))).warn({ code: 'HPE_INVALID_METHOD', otp: '913752' }, 'unreadable');
    expect(other.lines[0]).to.include({ code: 'HPE_INVALID_METHOD', otp: '[redacted]' });
  });

  it('texts lose the secrets they quote, and keep everything else', () => {
    expect(redactedText('password=Mellon&username=casuser otp=123456 token: abc')).to.equal('password=[redacted]&username=casuser otp=[redacted] token: [redacted]');
    expect(redactedText('{"password":"Mellon","service":"https://app/"}')).to.equal('{"password":"[redacted]","service":"https://app/"}');
    expect(redactedText('Authorization: Basic Y2FzdXNlcjpNZWxsb24= then')).to.equal('Authorization: [redacted] then');
    expect(redactedText('header Basic Y2FzdXNlcjpNZWxsb24=')).to.equal('header Basic [redacted]');
    expect(redactedText(`ticket ${TGT}.`)).to.equal(`ticket ${ticketFingerprint(TGT)}.`);
    expect(redactedText('jwt eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJjYXN1c2VyIn0.c2lnbmF0dXJl here')).to.equal('jwt [jwt] here');
    expect(redactedText('cannot reach redis://:s3cret@redis.example.org:6379 or mongodb://app:pa55@db1,db2/x')).to.equal('cannot reach redis://:[redacted]@redis.example.org:6379 or mongodb://app:[redacted]@db1,db2/x');
    expect(redactedText('cannot reach redis://:***@127.0.0.1:6379')).to.equal('cannot reach redis://:***@127.0.0.1:6379');
    const plain = 'user alice has a plain-text password; use passwordHash (tessera hash-password) at TGT-1#0c877c14bdc6';
    expect(redactedText(plain)).to.equal(plain);
  });

  it('a request id passes as it is, and a secret beside hex digits is still taken out', () => {
    const requestId = '5b0c0e5e-8a4b-4f8e-9a7e-1c2d3e4f5a6b';
    expect(redactedText(requestId)).to.equal(requestId);
    expect(redactedText(`${requestId}-${TGT}`)).to.equal(`${requestId}-${ticketFingerprint(TGT)}`);
    expect(redactedText(`${requestId} pwd=cafe-1234`)).to.equal(`${requestId} pwd=[redacted]`);
  });

  it('a text found clean is passed through again, and a secret is taken out however often it comes', () => {
    const clean = 'https://app.example.org/x';
    const secret = 'password=Mellon';
    for (let round = 0; round < 3; round += 1) {
      expect(redactedText(clean)).to.equal(clean);
      expect(redactedText(secret)).to.equal('password=[redacted]');
    }
  });

  it("an event line is byte for byte the line pino writes for the same fields, secrets taken out the same way", () => {
    const raw: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void raw.push(line) });
    const fields = { event: 'ticket.created', kind: 'ST', ticket: 'ST-2#1728fe24c44a', principal: 'casuser', service: `https://app/?ticket=${TGT}`, note: 'password=Mellon', roles: ['a', 'b'], count: 2, missing: undefined };
    writeEventLine(logger, 'info', fields, `made from ${TGT}`);
    logger.info(fields, `made from ${TGT}`);
    writeEventLine(logger, 'warn', {});
    logger.warn({});
    const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":""');
    expect(raw).to.have.length(4);
    expect(withoutTime(raw[0]!)).to.equal(withoutTime(raw[1]!));
    expect(withoutTime(raw[2]!)).to.equal(withoutTime(raw[3]!));
    expect(raw[0]).to.not.include('Mellon').and.not.include(TGT);
  });

  it('an event line stays byte for byte pino\'s for every kind of value, written once or again, secrets beside clean texts', () => {
    const raw: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void raw.push(line) });
    const when = new Date(Date.UTC(2026, 11, 7));
    const cases: Record<string, unknown>[] = [
      { event: 'x', quote: 'say "hi"\\ now', control: 'a\u0000b\nc\td\u001f', unicode: 'ünïcødé ✓ 𝄞', empty: '' },
      { password: undefined, otp: 913752, Authorization: { scheme: 'Basic' }, cookie: ['a', 'b'], 'Proxy-Authorization': null },
      { nested: { user: 'casuser', password: 'Mellon', deeper: { token: 'password=Mellon', list: [1, undefined, () => 1, null] } } },
      { zero: -0, nan: Number.NaN, inf: Number.POSITIVE_INFINITY, big: 1e21, tiny: 5e-7, yes: true, no: false, nothing: null, gone: undefined, fn: () => 1, sym: Symbol('s') },
      { when, error: new Error(`failed for ${TGT}`), bytes: Buffer.from('secret bytes'), 2: 'an index first', 'we"ird\\key': 'v' },
      { service: 'https://app.example.org/x', note: 'password=Mellon', requestId: '5b0c0e5e-8a4b-4f8e-9a7e-1c2d3e4f5a6b', ticket: TGT },
    ];
    // Twice each: the second time the clean members are remembered ones.
    for (const fields of [...cases, ...cases, { service: 'https://app.example.org/x', note: 'https://app.example.org/x' }]) {
      writeEventLine(logger, 'info', fields, 'm');
      logger.info(fields, 'm');
    }
    const withoutTimeAndStack = (line: string) => line.replace(/"time":"[^"]+"/, '"time":""').replace(/"stack":"[^"]*"/, '"stack":""');
    expect(raw).to.have.length(2 * (2 * cases.length + 1));
    for (let index = 0; index < raw.length; index += 2) expect(withoutTimeAndStack(raw[index]!)).to.equal(withoutTimeAndStack(raw[index + 1]!));
    for (const line of raw) expect(line).to.not.include('Mellon').and.not.include(TGT).and.not.include('913752');
    // Where pino writes a lone surrogate as it is (not UTF-8 once written), the event line escapes it as JSON.stringify does.
    writeEventLine(logger, 'info', { lone: 'half \ud800 of a pair' });
    expect(raw.at(-1)).to.include(String.raw`"lone":"half \ud800 of a pair"`);
  });

  it('an event line to a destination that wants pino metadata (a multistream), or of fields JSON cannot write, is pino\'s own', () => {
    const { lines, stream } = jsonLines();
    const logger = createLogger('info', pino.multistream([{ stream }]));
    writeEventLine(logger, 'info', { event: 'ticket.created', ticket: TGT }, 'ticket.created');
    const withCount = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    writeEventLine(withCount, 'info', { event: 'ticket.created', count: BigInt(2) }, 'ticket.created');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.include({ event: 'ticket.created', ticket: ticketFingerprint(TGT), msg: 'ticket.created' });
    expect(lines[1]).to.include({ event: 'ticket.created', msg: 'ticket.created' });
  });

  it('an event line below the logger level is not written', () => {
    const raw: string[] = [];
    writeEventLine(createLogger('warn', { write: (line: string) => void raw.push(line) }), 'info', { event: 'ticket.created' }, 'ticket.created');
    expect(raw).to.deep.equal([]);
  });

  it('refusals are warnings with their reason code', () => {
    const { lines, logger } = capture();
    const sink = new LoggingEventSink(logger, moduleEvents());
    sink.emit({ type: 'ticket.refused', kind: 'TGT', reason: 'SERVICE_NOT_AUTHORIZED', service: 'https://evil/', principal: 'casuser' });
    sink.emit({ type: 'authentication.refused', principal: 'alice', service: 'https://staff/', reason: 'PRINCIPAL_NOT_ALLOWED' });
    sink.emit({ type: 'service.refused', reason: 'MISSING_REQUIRED_ATTRIBUTE', principal: 'alice' });
    expect(lines.map((line) => [line['level'], line['event'], line['reason']])).to.deep.equal([
      ['warn', 'ticket.refused', 'SERVICE_NOT_AUTHORIZED'],
      ['warn', 'authentication.refused', 'PRINCIPAL_NOT_ALLOWED'],
      ['warn', 'service.refused', 'MISSING_REQUIRED_ATTRIBUTE'],
    ]);
  });

  // docs/architecture.md §6 — an operator joins a log line to the audit lines of the same request
  it('an event from a request carries its requestId, and nothing else of the origin; one from no request has none', () => {
    const { lines, logger } = capture();
    const sink = new LoggingEventSink(logger, moduleEvents());
    const event = { type: 'ticket.created', kind: 'TGT', ticket: ticketFingerprint(TGT), principal: 'casuser' } as const;
    sink.emit(event);
    sink.emit(event, { clientAddress: '203.0.113.7', requestId: 'req-42', endpoint: 'POST /cas/v1/tickets' });
    sink.emit({ type: 'server.error', context: 'GET /x', error: new Error('boom') }, { clientAddress: '203.0.113.7', requestId: 'req-43' });
    const [alone, fromRequest, error] = lines;
    expect(alone).to.not.have.property('requestId');
    const { requestId, ...rest } = fromRequest!;
    expect(requestId).to.equal('req-42');
    expect({ ...rest, time: alone!['time'] }).to.deep.equal(alone);
    expect(JSON.stringify(lines)).to.not.include('203.0.113.7').and.not.include('"endpoint"');
    expect(error).to.include({ event: 'server.error', requestId: 'req-43' });
  });

  it('the events one request emits in one turn are one line; another request, a later turn or a clashing field starts another', async () => {
    const { lines, logger } = capture();
    const sink = new LoggingEventSink(logger, moduleEvents());
    const from = (requestId: string) => ({ clientAddress: '203.0.113.7', requestId, endpoint: 'POST /cas/v1/tickets' });
    const tgt = ticketFingerprint(TGT);
    sink.emit({ type: 'authentication.succeeded', principal: 'casuser', handlers: ['config-users'], credentialTypes: ['usernamePassword'] }, from('r1'));
    sink.emit({ type: 'ticket.created', kind: 'TGT', ticket: tgt, principal: 'casuser' }, from('r1'));
    // Another ticket of the same request would overwrite kind and ticket: a line of its own.
    sink.emit({ type: 'ticket.created', kind: 'ST', ticket: 'ST-2#0c877c14bdc6', principal: 'casuser', service: 'https://app/' }, from('r1'));
    sink.emit({ type: 'ticket.refused', kind: 'ST', reason: 'SERVICE_NOT_AUTHORIZED', service: 'https://evil/' }, from('r2'));
    expect(lines).to.have.length(2);
    await new Promise((resolve) => setImmediate(resolve));
    sink.emit({ type: 'ticket.validated', ticket: 'ST-2#0c877c14bdc6', principal: 'casuser', service: 'https://app/' }, from('r2'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map(({ time: _time, pid: _pid, hostname: _hostname, ...line }) => line)).to.deep.equal([
      {
        level: 'info',
        name: 'tessera',
        event: 'ticket.created',
        events: ['authentication.succeeded', 'ticket.created'],
        principal: 'casuser',
        handlers: ['config-users'],
        credentialTypes: ['usernamePassword'],
        kind: 'TGT',
        ticket: tgt,
        requestId: 'r1',
        msg: 'authentication.succeeded, ticket.created',
      },
      { level: 'info', name: 'tessera', event: 'ticket.created', kind: 'ST', ticket: 'ST-2#0c877c14bdc6', principal: 'casuser', service: 'https://app/', requestId: 'r1', msg: 'ticket.created' },
      { level: 'warn', name: 'tessera', event: 'ticket.refused', kind: 'ST', reason: 'SERVICE_NOT_AUTHORIZED', service: 'https://evil/', requestId: 'r2', msg: 'ticket.refused' },
      { level: 'info', name: 'tessera', event: 'ticket.validated', ticket: 'ST-2#0c877c14bdc6', principal: 'casuser', service: 'https://app/', requestId: 'r2', msg: 'ticket.validated' },
    ]);
  });

  it('a line of several events is at the highest of their levels, and one written at the end of the turn never throws', async () => {
    const { lines, logger } = capture();
    const sink = new LoggingEventSink(logger, moduleEvents());
    const origin = { clientAddress: '203.0.113.7', requestId: 'r1', endpoint: 'POST /cas/v1/tickets' };
    sink.emit({ type: 'authentication.succeeded', principal: 'alice', handlers: ['config-users'], credentialTypes: ['usernamePassword'] }, origin);
    sink.emit({ type: 'ticket.refused', kind: 'TGT', reason: 'PRINCIPAL_NOT_ALLOWED', service: 'https://staff/', principal: 'alice' }, origin);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line['level'], line['events']])).to.deep.equal([['warn', ['authentication.succeeded', 'ticket.refused']]]);

    const broken = new LoggingEventSink(createLogger('info', { write: () => { throw new Error('ENOSPC'); } }), moduleEvents());
    broken.emit({ type: 'ticket.destroyed', ticket: 'TGT-1#abc', descendants: 2 }, origin);
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('in the container, a log that throws (a full disk) reaches neither the use case nor the metrics sink after it', async () => {
    const broken = createLogger('info', { write: () => { throw new Error('ENOSPC'); } });
    const binder = buildContainer({ config: parseConfig({}), logger: broken });
    const event = { type: 'ticket.refused', kind: 'TGT', reason: 'SERVICE_NOT_AUTHORIZED', principal: 'casuser' } as const;
    expect(() => binder.get(KEYS.EventSink).emit(event)).to.not.throw();
    const [metrics] = binder.getAll(KEYS.Metrics);
    expect(await metrics!.render()).to.include('tessera_refusals_total{request="TGT",reason="SERVICE_NOT_AUTHORIZED"} 1');
  });

  it('below the configured level nothing is written', () => {
    const lines: string[] = [];
    const logger = createLogger('warn', new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) }));
    new LoggingEventSink(logger, moduleEvents()).emit({ type: 'ticket.destroyed', ticket: 'TGT-1#abc', descendants: 2 });
    expect(lines).to.deep.equal([]);
  });
});
