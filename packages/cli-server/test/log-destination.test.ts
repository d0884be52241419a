import { expect } from 'chai';
import fs, { existsSync, mkdtempSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendedFile } from '@tessera/cli-server';

const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
const numbered = (from: number, count: number) => Array.from({ length: count }, (_, index) => `{"n":${from + index}}`);

/** process.stderr.write replaced for the duration of `body`; what it was handed. */
async function stderrDuring(body: () => Promise<void>): Promise<string> {
  const original = process.stderr.write.bind(process.stderr);
  let written = '';
  process.stderr.write = ((chunk: string) => ((written += chunk), true));
  try {
    await body();
  } finally {
    process.stderr.write = original;
  }
  return written;
}

describe('log destinations (written off the request path)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-log-destination-'));

  it('a file gets every line in order once closed, created readable by its owner only', async () => {
    const file = join(dir, 'burst.log');
    const destination = appendedFile(file, 'the test log');
    const lines = numbered(0, 20_000);
    for (const line of lines) destination.stream.write(`${line}\n`);
    await destination.close();
    expect(linesOf(file)).to.deep.equal(lines);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });

  it("lines of many turns go out together a few milliseconds later, without waiting for a close", async () => {
    const file = join(dir, 'turns.log');
    const destination = appendedFile(file, 'the test log');
    const { write, writev, writeSync } = fs;
    let writes = 0;
    fs.write = ((...args: Parameters<typeof write>) => ((writes += 1), Reflect.apply(write, fs, args))) as typeof write;
    fs.writev = ((...args: Parameters<typeof writev>) => ((writes += 1), Reflect.apply(writev, fs, args) as ReturnType<typeof writev>)) as typeof writev;
    fs.writeSync = ((...args: Parameters<typeof writeSync>) => ((writes += 1), Reflect.apply(writeSync, fs, args))) as typeof writeSync;
    try {
      const lines = numbered(0, 50);
      for (const line of lines) {
        destination.stream.write(`${line}\n`);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(linesOf(file)).to.deep.equal(lines);
      expect(writes, 'writes for 50 lines of 50 turns').to.be.within(1, 5);
    } finally {
      fs.write = write;
      fs.writev = writev;
      fs.writeSync = writeSync;
      await destination.close();
    }
  });

  it('reopened after a rename, lines written before go to the old file and lines after to a new one, all of both written once closed', async () => {
    const file = join(dir, 'rotated.log');
    const destination = appendedFile(file, 'the test log');
    for (const line of numbered(0, 100_000)) destination.stream.write(`${line}\n`);
    renameSync(file, `${file}.1`);
    destination.reopen();
    for (const line of numbered(100_000, 10)) destination.stream.write(`${line}\n`);
    await destination.close();
    expect(linesOf(`${file}.1`)).to.deep.equal(numbered(0, 100_000));
    expect(linesOf(file)).to.deep.equal(numbered(100_000, 10));
  });

  it('a closed file takes no more lines: they are dropped, not kept, and the file holds what came before', async () => {
    const file = join(dir, 'closed.log');
    const destination = appendedFile(file, 'the test log');
    destination.stream.write('{"n":0}\n');
    await destination.close();
    for (const line of numbered(1, 1000)) destination.stream.write(`${line}\n`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(linesOf(file)).to.deep.equal(['{"n":0}']);
    expect(Reflect.get(destination, 'joined'), 'lines kept after the close').to.equal('');
  });

  it('a path that cannot be opened fails at once with the system error', () => {
    expect(() => appendedFile(join(dir, 'no-such-dir', 'x.log'), 'the test log')).to.throw().with.property('code', 'ENOENT');
    expect(existsSync(join(dir, 'no-such-dir'))).to.equal(false);
  });

  it('a failing write (a full device) is said once on stderr and never ends the process', async function () {
    if (!existsSync('/dev/full')) this.skip();
    const said = await stderrDuring(async () => {
      const destination = appendedFile('/dev/full', 'the test log');
      for (const line of numbered(0, 100)) destination.stream.write(`${line}\n`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const line of numbered(100, 100)) destination.stream.write(`${line}\n`);
      await destination.close();
    });
    expect(said.split('\n').filter(Boolean)).to.deep.equal(['tessera: writing the test log failed, lines are lost until it works again: ENOSPC: no space left on device, write']);
  });
});
