import type { Config } from '../../config/schema.js';
import type { SettingProblem, TesseraModule } from '../module.js';
import { registrationProblems, registrationSchema } from './config.js';
import { registerServicesModule } from './register.js';

const sections = { registration: registrationSchema.prefault({}) };

/** `services` (docs/protocol.md §3): service registration over REST. */
export const servicesModule: TesseraModule<typeof sections> = {
  name: 'services',
  // Needs rest: its handler checks the Basic credentials, and its TGTs authorize the earlier variant.
  dependencies: ['rest'],
  sections,
  // No silent open registration: the module does not start without its required attribute.
  problems: servicesProblems,
  register: registerServicesModule,
};

function servicesProblems(config: Config): SettingProblem[] {
  return registrationProblems(config.registration);
}
