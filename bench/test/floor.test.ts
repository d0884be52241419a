import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHEAP_LOGIN, SERVICE } from '../src/fixtures.js';
import { TEXT_FORM } from '../src/load-spec.js';
import { startFloor } from '../dist/processes/koa-process.js';
import { floorLoad } from '../src/rows.js';
import { ST_SIZED_ID, TGT_SIZED_ID } from '../src/sized-ids.js';

const records = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// The floor bounds a row only if it writes what tessera writes for that request and answers alike;
// it runs from its build, as the bench starts it.
describe('bench floor: Koa routes that only write the log line and audit records of their row', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'tessera-floor-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("answers the three rows' requests as tessera does, and has written one log line and tessera's audit records for each when SIGTERM stops it", async () => {
    const floor = await startFloor(1, dir);
    const send = (name: 'tgt' | 'grant' | 'validate') => {
      const spec = floorLoad(name, floor.origin, 1, 1);
      return fetch(`${floor.origin}${spec.paths[0]!}`, { method: spec.method, ...(spec.body !== undefined && { body: spec.body }), headers: { ...spec.headers } });
    };
    try {
      const tgt = await send('tgt');
      expect(tgt.status).to.equal(201);
      expect(tgt.headers.get('location')).to.equal(`${floor.origin}/v1/tickets/${TGT_SIZED_ID}`);
      expect(await tgt.text()).to.equal(TGT_SIZED_ID);
      const grant = await send('grant');
      expect([grant.status, grant.headers.get('content-type'), await grant.text()]).to.deep.equal([200, 'text/plain; charset=utf-8', ST_SIZED_ID]);
      const validation = await send('validate');
      expect([validation.status, validation.headers.get('content-type')]).to.deep.equal([200, 'application/xml; charset=utf-8']);
      expect(await validation.text()).to.contain('<cas:user>casuser</cas:user>');
    } finally {
      await floor.close();
    }
    expect(records(join(dir, 'floor.log')).map((line) => [line['event'], line['name'], line['service']])).to.deep.equal([
      ['ticket.created', 'tessera', undefined],
      ['ticket.created', 'tessera', SERVICE],
      ['ticket.validated', 'tessera', SERVICE],
    ]);
    expect(records(join(dir, 'floor-audit.log')).map((record) => [record['audit'], record['action'], record['node'], record['address']])).to.deep.equal([
      ['authentication', 'authentication.succeeded', 'bench', '127.0.0.1'],
      ['ticket', 'ticket.created', 'bench', '127.0.0.1'],
      ['ticket', 'ticket.created', 'bench', '127.0.0.1'],
      ['validation', 'ticket.validated', 'bench', '127.0.0.1'],
    ]);
  });

  it('takes the same login body and text answer as the TGT row', () => {
    const spec = floorLoad('tgt', 'http://127.0.0.1:1', 50, 10);
    expect([spec.method, spec.body, spec.headers]).to.deep.equal(['POST', CHEAP_LOGIN, TEXT_FORM]);
  });
});
