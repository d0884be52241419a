import type { TesseraModule } from '../module.js';
import { proxySchema } from './config.js';
import { registerProxyModule } from './register.js';

const sections = { proxy: proxySchema.prefault({}) };

/** `proxy` (docs/protocol.md §13): proxy-granting and proxy tickets. */
export const proxyModule: TesseraModule<typeof sections> = {
  name: 'proxy',
  // Needs rest: proxy tickets speak for login sessions, which the rest module's use cases make.
  dependencies: ['rest'],
  onInDemo: true,
  sections,
  register: registerProxyModule,
};
