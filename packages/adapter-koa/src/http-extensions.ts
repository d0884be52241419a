import type { Context } from 'koa';
import type { Step } from './routes/route.js';

/** Which requests of a route check credentials, e.g. POST /v1/tickets/{tgt} only with `renew`. */
export type RequestCondition = (ctx: Context) => boolean;

/**
 * What a module adds to routes that are not its own, at named points the central routes consume without
 * knowing which module filled them. createApp gathers each point from every module, in module order.
 */
export interface HttpExtensions {
  /**
   * A step for every route that checks credentials, placed right after its body is read; `condition`,
   * when the route gives one, says which of its requests check them (the others must pass untouched).
   */
  credentialGuard?(condition?: RequestCondition): Step;
  /** A step placed first on the validation endpoints and /proxy, right after their failure renderer. */
  readonly validationGuard?: Step;
}
