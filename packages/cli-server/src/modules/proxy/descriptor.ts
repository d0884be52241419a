/** The catalog entry of the `proxy` module. */
export const PROXY_MODULE = {
  name: 'proxy',
  // Needs rest: proxy tickets speak for login sessions, which the rest module's use cases make.
  dependencies: ['rest'],
  summary: 'proxy tickets: pgtUrl callbacks over HTTPS on the validation endpoints, GET /proxy, proxy chains',
} as const;
