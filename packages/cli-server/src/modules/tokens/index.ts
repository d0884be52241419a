import { cryptoRandomSource } from '@tessera/core';
import { generateTokenKeys } from '@tessera/core/modules/tokens';
import type { ModuleContext, ModuleKeyFile, ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
import { tokensCommands } from './commands.js';
import { tokensSections } from './config.js';
import { registerTokensModule } from './register.js';

/** `tokens` (docs/protocol.md §6): TGTs and STs as JWTs. */
export const tokensModule: TesseraModule<typeof tokensSections> = {
  name: 'tokens',
  comparisonRows: ['CAS REST protocol (TGT and ST over HTTP), JWT tickets'],
  // Needs rest: only its routes hand out JWTs (a TGT on POST /v1/tickets, STs on POST /v1/tickets/{tgt}); without them the validation endpoints would never see one.
  dependencies: ['rest'],
  sections: tokensSections,
  parameters: () => [{ name: 'token' }],
  problems: tokensProblems,
  keyFiles: tokensKeyFiles,
  commands: tokensCommands,
  register: registerTokensModule,
};

type TokensSettings = ModuleSettings<typeof tokensSections>;

/** `tokens.keyFile`, unless both keys are set. */
function tokensKeyFiles({ tokens }: TokensSettings): ModuleKeyFile<TokensSettings>[] {
  if (tokens.signingKey !== undefined && tokens.encryptionKey !== undefined) return [];
  const inMemory = (settings: TokensSettings): TokensSettings => {
    const generated = generateTokenKeys(settings.tokens.encryptionAlgorithm, cryptoRandomSource);
    return { ...settings, tokens: { ...settings.tokens, signingKey: settings.tokens.signingKey ?? generated.signingKey, encryptionKey: settings.tokens.encryptionKey ?? generated.encryptionKey } };
  };
  return [{ setting: 'tokens.keyFile', file: tokens.keyFile, inMemory }];
}

/** What the `tokens` module checks across settings. */
function tokensProblems({ tokens }: ModuleSettings<typeof tokensSections>, { server, parameters }: ModuleContext): SettingProblem[] {
  const problems: SettingProblem[] = [];
  // With server.publicUrl, an issuer could only disagree with the URL clients use.
  const serverPrefix = `${server.publicUrl}${server.basePath}`;
  if (server.publicUrl !== undefined && tokens.issuer !== undefined && tokens.issuer !== serverPrefix) {
    problems.push({ path: ['tokens', 'issuer'], message: `disagrees with server.publicUrl and server.basePath, which make ${serverPrefix}: leave it unset, or set it to that` });
  }
  // Whatever reads a credential says so in its declaration: the password, a one-time code, a certificate.
  const credentialParameters = new Set(parameters.filter((parameter) => parameter.credential === true).map((parameter) => parameter.name));
  tokens.requestParameters.forEach((name, index) => {
    if (credentialParameters.has(name)) problems.push({ path: ['tokens', 'requestParameters', index], message: `"${name}" carries a credential, which never goes into a token` });
  });
  return problems;
}
