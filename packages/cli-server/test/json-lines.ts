import { Writable } from 'node:stream';

/** A stream keeping each JSON line written to it, parsed: what a logger under test wrote. */
export function jsonLines(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
      done();
    },
  });
  return { lines, stream };
}
