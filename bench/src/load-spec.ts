/** One autocannon run of one request, as sent to the driver child process (plain data, so it crosses IPC). */
export interface LoadSpec {
  readonly kind: 'request';
  /** Origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
  readonly connections: number;
  /** Seconds to run; ignored when `amount` is set. */
  readonly duration: number;
  /** Stop after this many responses instead of after `duration`. */
  readonly amount?: number;
  readonly method: 'GET' | 'POST';
  /** Paths taken in turn, one per request across all connections (a single path is fixed). */
  readonly paths: readonly string[];
  readonly body?: string;
  /** Bodies taken in turn, one per request across all connections (a fresh authorization code each); instead of `body`. */
  readonly bodies?: readonly string[];
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Keep the body of every 2xx response, or the Location of every redirect (minting ticket and code
   * pools; never while measuring).
   */
  readonly collect?: 'body' | 'location';
}

/**
 * The soak's loop, on every connection: log in (POST /v1/tickets), grant an ST for `service` with
 * the TGT, validate it (GET /p3/serviceValidate), log out (DELETE the TGT); then again.
 */
export interface FlowSpec {
  readonly kind: 'flow';
  readonly origin: string;
  /** Base path of tessera's endpoints, e.g. `/cas`. */
  readonly base: string;
  readonly connections: number;
  readonly duration: number;
  readonly login: string;
  readonly service: string;
  /** How often the driver reports a FlowProgress while it runs. */
  readonly progressSeconds: number;
}

/**
 * The SAML row's loop, on every connection: a browser with a login session (its cookies, the TGC)
 * posts a fresh AuthnRequest of the bench's SP to the SSO endpoint (303 to /login, with the pending
 * login's own cookie), follows it to /login (302 to the callback with an ST, by single sign-on) and to
 * the callback, whose page posts the signed Response to the SP. One login is the unit: it counts as
 * answered once the callback answers, as a success only when that page is the SP's Response with
 * status Success to the request sent (saml-sp.ts's loginAnswer); its latency runs from the
 * AuthnRequest to that page.
 */
export interface SamlLoginSpec {
  readonly kind: 'saml-login';
  readonly origin: string;
  /** Base path of tessera's endpoints, e.g. `/cas`. */
  readonly base: string;
  readonly connections: number;
  readonly duration: number;
  /** The cookies of browsers logged in already, one for each connection in turn. */
  readonly sessions: readonly string[];
  /** AuthnRequests the load generator makes before the load starts, and again each time half are used (saml-sp.ts's AuthnRequestPool). */
  readonly poolBatch: number;
  /** How many successful Responses to hand back (`collected`), for their signatures to be checked. */
  readonly samples: number;
}

/** Requests of a flow so far: answered 2xx, and failed (non-2xx or no answer). */
export interface FlowProgress {
  ok: number;
  failed: number;
}

export interface LoadOutcome {
  /** Seconds the load ran. */
  readonly seconds: number;
  /** 2xx responses per second: only successes count as throughput. */
  readonly okPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Connection errors and timeouts (autocannon counts a timeout as an error too). */
  readonly errors: number;
  readonly non2xx: number;
  readonly responses: number;
  readonly collected: readonly string[];
  /** What failed, the first few kinds of it (the SAML row's failed logins). */
  readonly problems?: readonly string[];
  /** The SAML row's AuthnRequest pool: batches made after the first, and requests made on the spot (none ready). */
  readonly pool?: { readonly refills: number; readonly madeOnTheSpot: number };
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' } as const;
/** A form that asks for the plain-text answer (a TGT id, not the HTML page). */
export const TEXT_FORM = { ...FORM, accept: 'text/plain' } as const;
