/** How the HTTP adapter behaves; the composition root fills it from configuration. */
export interface HttpOptions {
  /** Prefix of every route, e.g. `/cas`; `''` or `/` serves from the root. createApp drops trailing slashes once, for every route and URL. */
  readonly basePath: string;
  /** Honour X-Forwarded-Proto/Host/For (Koa's `app.proxy`) only behind a proxy that sets them. */
  readonly trustProxy: boolean;
  /**
   * Scheme, host and port clients reach the server by (`https://cas.example.org`), no path: every absolute
   * URL, `iss` and SAML Issuer is built from it and `basePath`, never from the request's host.
   */
  readonly publicUrl?: string;
  /** Without `publicUrl`: the request hosts answered and reflected (`name` on any port, or `name:port`); others get 400. */
  readonly allowedHosts: readonly string[];
  /** HTTP status of a failed ticket validation (docs/protocol.md §3.7); success is always 200. */
  readonly validationFailureStatus: 200 | 400;
  /** Larger request bodies are refused with 413. */
  readonly maxBodyBytes: number;
}
