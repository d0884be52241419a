import { cryptoRandomSource } from '@tessera/core';
import { generateLoginSecret } from '@tessera/core/modules/login';
import type { Config } from '../../config/schema.js';
import type { ModuleKeyFile, TesseraModule } from '../module.js';
import { loginSchema } from './config.js';
import { registerLoginModule } from './register.js';

const sections = { login: loginSchema.prefault({}) };

/** `login` (docs/protocol.md §12): the browser half of CAS. */
export const loginModule: TesseraModule<typeof sections> = {
  name: 'login',
  // Needs rest: the form logs in through its credential handlers, throttle and audit.
  dependencies: ['rest'],
  onInDemo: true,
  sections,
  keyFiles: loginKeyFiles,
  register: registerLoginModule,
};

/** `login.keyFile`, unless `login.key` is set. */
function loginKeyFiles({ login }: Config): ModuleKeyFile[] {
  if (login.key !== undefined) return [];
  return [{ setting: 'login.keyFile', file: login.keyFile, inMemory: (config) => ({ ...config, login: { ...config.login, key: generateLoginSecret(cryptoRandomSource) } }) }];
}
