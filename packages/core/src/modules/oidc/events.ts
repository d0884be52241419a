/**
 * The oidc module's provider: a browser sent back to an OpenID Connect client with a code
 * (`oidc.authorized`), a client given tokens at the token endpoint (`oidc.token.issued`, by grant type).
 * Never a code or token value.
 */
export type OidcIssuedEvent = {
  readonly type: 'oidc.authorized' | 'oidc.token.issued';
  readonly client: string;
  readonly principal?: string;
  readonly grantType?: string;
};

/** The provider refused an authorization, token, introspection or revocation request: its OAuth error code (`invalid_grant`, `invalid_client`, ...). */
export type OidcRefusedEvent = {
  readonly type: 'oidc.refused';
  readonly client?: string;
  readonly request: 'authorization' | 'token' | 'introspection' | 'revocation';
  readonly error: string;
};

/**
 * An OpenID Connect session ended (`oidc.logout`: RP-initiated, or with the TGT of its login session),
 * and whether a client that registered a back-channel logout URI was told.
 */
export type OidcLogoutEvent = {
  readonly type: 'oidc.logout' | 'oidc.backchannel.delivered' | 'oidc.backchannel.failed';
  readonly principal?: string;
  readonly client?: string;
};

export type OidcEvent = OidcIssuedEvent | OidcRefusedEvent | OidcLogoutEvent;
