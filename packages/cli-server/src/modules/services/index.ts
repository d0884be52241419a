import type { ModuleSettings, SettingProblem, TesseraModule } from '../module.js';
import { registrationProblems, servicesSections } from './config.js';
import { registerServicesModule } from './register.js';
import { servicesEvents } from './events.js';

/** The form fields of `POST /v1/services/add/{tgt}`, served with `registration.earlier`. */
const EARLIER_FORM_FIELDS = ['serviceId', 'name', 'description', 'evaluationOrder', 'enabled', 'ssoEnabled'];

/** `services` (docs/protocol.md §3): service registration over REST. */
export const servicesModule: TesseraModule<typeof servicesSections> = {
  name: 'services',
  comparisonRows: ['Registering services over an API'],
  // No dependency: its routes are its own, and check credentials through the central handlers (the
  // earlier variant takes a TGT, which POST /v1/tickets hands out with the rest module on).
  dependencies: [],
  sections: servicesSections,
  events: servicesEvents,
  parameters: ({ registration }) => (registration.earlier ? EARLIER_FORM_FIELDS.map((name) => ({ name })) : []),
  // No silent open registration: the module does not start without its required attribute.
  problems: servicesProblems,
  register: registerServicesModule,
};

function servicesProblems({ registration }: ModuleSettings<typeof servicesSections>): SettingProblem[] {
  return registrationProblems(registration);
}
