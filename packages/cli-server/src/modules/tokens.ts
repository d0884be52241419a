import { CasJwtCodec, JwtTickets } from '@tessera/core';
import { loadTokenKeys } from '../config/token-key-file.js';
import { TOKENS } from '../tokens.js';
import type { ModuleRegistration } from './registry.js';

/** `tokens`: JWT TGTs and STs. Keys are loaded (or first generated) and imported once, when the app is built. */
export const registerTokensModule: ModuleRegistration = (binder, config) => {
  binder.resolved(
    TOKENS.JwtTickets,
    [TOKENS.Clock, TOKENS.RandomSource],
    (clock, random) => new JwtTickets(new CasJwtCodec(loadTokenKeys(config.tokens, random), clock), clock, config.tokens.issuer, config.tokens.requestParameters),
  );
};
