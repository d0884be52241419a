/** Why a proxy callback did not take its PGT: an answer other than 200, none in time, none at all, or a TLS peer not trusted. */
export type ProxyCallbackFailure = 'status' | 'timeout' | 'unreachable' | 'certificate';

/** A proxy callback did not take its PGT (CAS protocol 3.0 §2.5.4): the validation answers without one. */
export type ProxyCallbackFailedEvent = {
  readonly type: 'proxy.callback.failed';
  /** The pgtUrl as the validation request gave it, never with the ticket added. */
  readonly proxy: string;
  /** The service URL of the validated ticket: the would-be proxy. */
  readonly service: string;
  readonly principal: string;
  /** The fingerprint of the validated ticket. */
  readonly ticket: string;
  readonly reason: ProxyCallbackFailure;
  /** `status`: the HTTP status the callback answered. */
  readonly status?: number;
};
