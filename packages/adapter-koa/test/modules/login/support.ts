import { cryptoRandomSource } from '@tessera/core';
import { BrowserLogin, deriveLoginKeys, generateLoginSecret, LoginFormTokens, PendingLogins, TicketGrantingCookie } from '@tessera/core/modules/login';
import { FixedClock, MapRecordStores } from '@tessera/testkit';
import type { HttpModule } from '../../../src/index.js';
import { DEFAULT_COLOURS, loginModule, MESSAGES } from '../../../src/modules/login/index.js';
import type { ServerSetup } from '../../harness.js';

export type Parts = Parameters<NonNullable<ServerSetup['modules']>>[0];

/** The login module on the test server's core, its stores on fakes, before the test's own modules. */
export function loginWith({ core, tickets, events }: Parts, others: readonly HttpModule[] = []): HttpModule[] {
  const keys = deriveLoginKeys(generateLoginSecret(cryptoRandomSource));
  const clock = new FixedClock();
  const used = new Set<string>();
  const login = loginModule({
    login: new BrowserLogin(core, tickets, events),
    cookie: new TicketGrantingCookie(keys),
    formTokens: new LoginFormTokens(keys, { claim: (id) => Promise.resolve(!used.has(id) && Boolean(used.add(id))) }, clock, cryptoRandomSource, 1800),
    pendingLogins: new PendingLogins(new MapRecordStores(clock).namespace('login.pending'), clock, cryptoRandomSource, 1800),
    branding: { title: 'tessera', colours: DEFAULT_COLOURS },
    messages: MESSAGES.en,
  });
  return [login, ...others];
}
