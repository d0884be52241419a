export * from './register-service.js';
