/** A user agreed to the release of their attributes to a service: the decision, never an attribute value. */
export type ConsentGivenEvent = {
  readonly type: 'consent.given';
  readonly principal: string;
  /** The service URL the decision is for (for a SAML SP, its entity id). */
  readonly service: string;
  /** When the user is asked again: ALWAYS, ATTRIBUTE_NAME or ATTRIBUTE_VALUE. */
  readonly option: string;
  /** The names of the attributes the user agreed to release. */
  readonly attributes: readonly string[];
};

/** A user refused the release of their attributes to a service: no ticket was issued. */
export type ConsentDeniedEvent = {
  readonly type: 'consent.denied';
  readonly principal: string;
  readonly service: string;
};
