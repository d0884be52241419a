export { ListRevocationSource } from './list-revocation-source.js';
