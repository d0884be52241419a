/** The catalog entry of the `login` module. */
export const LOGIN_MODULE = {
  name: 'login',
  // Needs rest: the form logs in through its credential handlers, throttle and audit.
  dependencies: ['rest'],
  summary: 'browsers: /login with single sign-on and /logout, the TGC cookie, single logout to opted-in services',
} as const;
