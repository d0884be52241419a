import type { TesseraModule } from '../module.js';
import { restSections } from './config.js';
import { registerRestModule } from './register.js';

/** `rest` (docs/protocol.md §3): the REST protocol's tickets and authentication, over the central credential handlers. */
export const restModule: TesseraModule<typeof restSections> = {
  name: 'rest',
  comparisonRows: ['CAS REST protocol (TGT and ST over HTTP), JWT tickets'],
  dependencies: [],
  onByDefault: true,
  sections: restSections,
  // Its own parameters beside the central ones: `service`, and `renew` and `TARGET` on POST /v1/tickets/{tgt}.
  parameters: () => [{ name: 'service' }, { name: 'renew' }, { name: 'TARGET' }],
  register: registerRestModule,
};
