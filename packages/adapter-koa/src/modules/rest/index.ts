export { restModule } from './rest-module.js';
export { usernamePasswordExtractor } from './username-password-extractor.js';
