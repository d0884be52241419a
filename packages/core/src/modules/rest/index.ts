export * from './passwords/argon2-password-hasher.js';
export * from './passwords/directory-password-handler.js';
