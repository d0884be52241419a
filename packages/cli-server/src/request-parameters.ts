/**
 * A request parameter tessera reads, as its reader declares it (docs/adding-a-module.md §2): the
 * central parts below, and each module in its declaration. Checks across modules and the log's
 * redaction take them from the declarations, never from a list of other modules' names.
 */
export interface RequestParameter {
  readonly name: string;
  /**
   * Its value is a secret (a password, a one-time code): no log or audit line ever holds it, under
   * its name as a key or after `name=` in a text. Not for names log lines use for their own fields
   * (`ticket`, `service`): those hold fingerprints and URLs, which must stay readable.
   */
  readonly secret?: boolean;
  /** It carries a credential (or a part of one): never copied anywhere else, such as into a token. */
  readonly credential?: boolean;
  /**
   * Read by an app the module mounts (the oidc module's node-oidc-provider), not by a route of the
   * router: declared for the log's redaction and the other modules' checks, absent from the OpenAPI document.
   */
  readonly mounted?: boolean;
}

/** A declared parameter and who reads it: a module by name, or tessera's central parts. */
export interface DeclaredParameter extends RequestParameter {
  readonly readBy: string;
}

/** How the central parts sign their declarations. */
export const CENTRAL_READER = 'tessera';

/**
 * What the central parts read, whichever modules are on: the username + password extractor every
 * credential-taking route runs (the central authentication), and the validation endpoints.
 */
export const CENTRAL_PARAMETERS: readonly RequestParameter[] = [
  { name: 'username', credential: true },
  { name: 'password', secret: true, credential: true },
  { name: 'service' },
  { name: 'ticket' },
  { name: 'renew' },
  { name: 'format' },
  { name: 'TARGET' },
];
