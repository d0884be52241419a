import { tokensModule } from '@tessera/adapter-koa/modules/tokens';
import { CasJwtCodec, JwtTickets } from '@tessera/core/modules/tokens';
import { loadTokenKeys } from './key-file.js';
import { KEYS } from '../../keys.js';
import type { ModuleRegistration } from '../module.js';
import type { tokensSections } from './config.js';

/** `tokens`: JWT TGTs and STs. Keys are loaded (or first generated) and imported once, when the app is built. */
export const registerTokensModule: ModuleRegistration<typeof tokensSections> = (binder, { tokens }) => {
  binder.resolved(KEYS.HttpModule, [KEYS.Clock, KEYS.RandomSource, KEYS.CasCore], (clock, random, core) =>
    tokensModule(new JwtTickets(new CasJwtCodec(loadTokenKeys(tokens, random), clock), clock, core.relyingParties.release, tokens.issuer, tokens.requestParameters)),
  );
};
