export { restModule, type RestModuleOptions } from './rest-module.js';
export { usernamePasswordExtractor } from './username-password-extractor.js';
