import { MemoryServiceRegistry, MemoryTicketStore, MemoryUserDirectory } from '@tessera/adapter-memory';
import {
  Argon2PasswordHasher,
  createCasCore,
  cryptoRandomSource,
  defaultTicketLifetimes,
  discardEvents,
  DirectoryPasswordHandler,
  systemClock,
} from '@tessera/core';

/**
 * Child process (run with --expose-gc): creates `count` live TGTs through core's
 * CreateTicketGrantingTicket into a MemoryTicketStore, exactly as POST /v1/tickets stores them
 * (cheap plain-password handler, the real id generator), then reports RSS and heap after a full GC.
 */
export interface MemoryFigure {
  readonly tickets: number;
  readonly seconds: number;
  readonly rssBeforeMiB: number;
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
}

const MIB = 1024 * 1024;

async function measure(count: number): Promise<MemoryFigure> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const tickets = new MemoryTicketStore(systemClock);
  const users = new MemoryUserDirectory([
    { username: 'casuser', password: { kind: 'plain', value: 'Mellon' }, attributes: { mail: ['casuser@example.org'], memberOf: ['staff', 'faculty'] } },
  ]);
  const core = createCasCore({
    tickets,
    registry: new MemoryServiceRegistry([]),
    handlers: [new DirectoryPasswordHandler('config-users', users, new Argon2PasswordHasher())],
    clock: systemClock,
    random: cryptoRandomSource,
    nodeName: 'bench',
    lifetimes: defaultTicketLifetimes,
    events: discardEvents,
  });
  gc();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    await core.createTicketGrantingTicket.execute({ credentials: [{ type: 'usernamePassword', username: 'casuser', password: 'Mellon' }] });
  }
  const seconds = (performance.now() - started) / 1000;
  gc();
  const usage = process.memoryUsage();
  if (tickets.size !== count) throw new Error(`expected ${count} tickets held, found ${tickets.size}`);
  return { tickets: count, seconds, rssBeforeMiB: rssBefore / MIB, rssMiB: usage.rss / MIB, heapUsedMiB: usage.heapUsed / MIB };
}

process.once('message', (count: number) => {
  measure(count).then(
    (figure) => process.send?.(figure, () => process.exit(0)),
    (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
  );
});
