export * from './oidc-claims.js';
export * from './oidc-keys.js';
export * from './events.js';
export * from './pairwise-subject.js';
