import type { ProxyCallbackFailure } from './events.js';

/** One delivery of a PGT to a proxy's callback (CAS protocol 3.0 §2.5.4). */
export interface ProxyCallbackRequest {
  /** The pgtUrl as the validation request gave it: an absolute https URL the service's proxy policy allows. */
  readonly url: string;
  readonly pgtId: string;
  readonly pgtIou: string;
}

export type ProxyCallbackOutcome =
  | { readonly delivered: true }
  | { readonly delivered: false; readonly reason: ProxyCallbackFailure; /** `status`: what the callback answered. */ readonly status?: number };

/**
 * Delivers a PGT to its proxy: `GET <pgtUrl>` with `pgtIou` and `pgtId` added to its query, over HTTPS
 * with the proxy's certificate verified, within a time limit, redirects not followed. Delivered only
 * when the callback answers 200. Never throws: every failure is an outcome.
 */
export interface ProxyCallback {
  deliver(request: ProxyCallbackRequest): Promise<ProxyCallbackOutcome>;
}

/** The URL a callback is called at: the pgtUrl, its own query kept as written, with `pgtIou` and `pgtId` after it. */
export function proxyCallbackUrl({ url, pgtId, pgtIou }: ProxyCallbackRequest): URL {
  const target = new URL(url);
  target.hash = '';
  const added = new URLSearchParams({ pgtIou, pgtId }).toString();
  target.search = target.search === '' ? added : `${target.search.slice(1)}&${added}`;
  return target;
}
