/** The login form came back without a token this browser may use: missing, forged, expired or used before. */
export type LoginTokenRefusedEvent = {
  readonly type: 'login.token.refused';
  readonly reason: 'missing' | 'invalid' | 'expired' | 'reused';
};

/** Why a service is told: its login session was logged out (by the user, REST or another login) or expired. */
export type LogoutTrigger = 'logout' | 'expiry';

/** A service opted in to single logout accepted the logout request of one of its sessions. */
export type LogoutRequestDeliveredEvent = {
  readonly type: 'logout.request.delivered';
  /** The service URL the session's ticket was issued for. */
  readonly service: string;
  /** The fingerprint of that ticket (the request's SessionIndex). */
  readonly ticket: string;
  readonly principal: string;
  readonly trigger: LogoutTrigger;
  readonly attempts: number;
};

/** Every attempt to deliver a logout request failed; the service's session may live on. */
export type LogoutRequestFailedEvent = {
  readonly type: 'logout.request.failed';
  readonly service: string;
  readonly ticket: string;
  readonly principal: string;
  readonly trigger: LogoutTrigger;
  readonly attempts: number;
  /** The last attempt's failure: `HTTP <status>`, `timeout` or `unreachable`. */
  readonly reason: string;
};

/**
 * A login session had as many single-logout records as it may keep (`login.singleLogout.maxPerSession`)
 * when a service validated another ticket: its oldest record was dropped, so that service will not
 * be told when the session ends.
 */
export type LogoutRequestDroppedEvent = {
  readonly type: 'logout.request.dropped';
  /** The service URL of the dropped record's ticket. */
  readonly service: string;
  /** The fingerprint of that ticket. */
  readonly ticket: string;
  readonly principal: string;
  /** How many records a session keeps. */
  readonly limit: number;
};
