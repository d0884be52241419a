/** The kinds of upstream identity provider the module logs users in through. */
export const UPSTREAM_KINDS = ['oidc', 'oauth2', 'cas', 'saml2'] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

/** What the login page shows of an upstream provider: its id, the kind, the button's title and optional logo. */
export type UpstreamButton = {
  readonly id: string;
  readonly title: string;
  readonly logoUrl?: string;
};
