export * from './oidc-claims.js';
export * from './oidc-keys.js';
export * from './events.js';
export * from './scope-release-policies.js';
export * from './claims-release.js';
export * from './pairwise-subject.js';
export * from './client-definition.js';
export * from './client-warnings.js';
