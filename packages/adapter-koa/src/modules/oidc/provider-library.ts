/**
 * node-oidc-provider, loaded once. On Node 20 it writes "Unsupported runtime" to stderr as it loads,
 * whether or not the oidc module is on: that one line is held back here, since tessera's commands
 * promise one stderr line per problem. Every other warning of the library still gets through.
 */
/* eslint-disable no-console -- the library's own warning line, held back while it loads */
const warn = console.warn;
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].startsWith('oidc-provider WARNING: Unsupported runtime')) return;
  warn(...args);
};
const library = await import('oidc-provider');
console.warn = warn;
/* eslint-enable no-console */

export const { default: Provider, errors, interactionPolicy } = library;
