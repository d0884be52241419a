import type { RegisterService } from '@tessera/core/modules/services';
import type { HttpModule } from '../../http-module.js';
import type { ServiceCodec } from '../../services/codecs/service-codec.js';
import { registerFromFormRoute, registerFromJsonRoute } from './registration-routes.js';

export interface ServicesModuleOptions {
  readonly registerService: RegisterService;
  /** The server's one codec of service definitions (every policy class it has). */
  readonly codec: ServiceCodec;
  /** POST /v1/services (CAS 6+: HTTP Basic and a JSON definition). */
  readonly current: boolean;
  /** The `@class` values a definition sent to POST /v1/services may have. */
  readonly acceptedTypes: readonly string[];
  /** POST /v1/services/add/{tgt} (CAS 4.2–5.x: a TGT and form fields). */
  readonly earlier: boolean;
}

/**
 * The `services` module (docs/protocol.md §3): register services over REST. A variant that is off adds
 * no route, so it answers 404. Both are throttled like every credential-checking route (docs/protocol.md §5).
 */
export function servicesModule(options: ServicesModuleOptions): HttpModule {
  return {
    name: 'services',
    routes: (http) => [
      ...(options.current ? [registerFromJsonRoute(http, options.registerService, options.codec, options.acceptedTypes)] : []),
      ...(options.earlier ? [registerFromFormRoute(http, options.registerService, options.codec)] : []),
    ],
  };
}
