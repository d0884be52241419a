import { cryptoRandomSource } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import type { Config } from '../../config/schema.js';
import type { ModuleKeyFile, SettingProblem, TesseraModule } from '../module.js';
import { tokensSchema } from './config.js';
import { registerTokensModule } from './register.js';

/** Parameters carrying credentials (the x509 module's `cert` too; the OTP code's is `otp.parameter`): never copied into a token. */
const CREDENTIAL_PARAMETERS = ['username', 'password', 'cert'];

const sections = { tokens: tokensSchema.prefault({}) };

/** `tokens` (docs/protocol.md §6): TGTs and STs as JWTs. */
export const tokensModule: TesseraModule<typeof sections> = {
  name: 'tokens',
  dependencies: ['rest'],
  sections,
  problems: tokensProblems,
  keyFiles: tokensKeyFiles,
  register: registerTokensModule,
};

/** `tokens.keyFile`, unless both keys are set. */
function tokensKeyFiles({ tokens }: Config): ModuleKeyFile[] {
  if (tokens.signingKey !== undefined && tokens.encryptionKey !== undefined) return [];
  const inMemory = (config: Config): Config => {
    const generated = generateTokenKeys(config.tokens.encryptionAlgorithm, cryptoRandomSource);
    return { ...config, tokens: { ...config.tokens, signingKey: config.tokens.signingKey ?? generated.signingKey, encryptionKey: config.tokens.encryptionKey ?? generated.encryptionKey } };
  };
  return [{ setting: 'tokens.keyFile', file: tokens.keyFile, inMemory }];
}

/** What the `tokens` module checks across settings. */
function tokensProblems(config: Config): SettingProblem[] {
  const problems: SettingProblem[] = [];
  // With server.publicUrl, an issuer could only disagree with the URL clients use.
  const serverPrefix = `${config.server.publicUrl}${config.server.basePath}`;
  if (config.server.publicUrl !== undefined && config.tokens.issuer !== undefined && config.tokens.issuer !== serverPrefix) {
    problems.push({ path: ['tokens', 'issuer'], message: `disagrees with server.publicUrl and server.basePath, which make ${serverPrefix}: leave it unset, or set it to that` });
  }
  const credentialParameters = [...CREDENTIAL_PARAMETERS, config.otp.parameter];
  config.tokens.requestParameters.forEach((name, index) => {
    if (credentialParameters.includes(name)) problems.push({ path: ['tokens', 'requestParameters', index], message: `"${name}" carries a credential, which never goes into a token` });
  });
  return problems;
}
