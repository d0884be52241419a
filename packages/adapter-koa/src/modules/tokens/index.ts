export { tokensModule } from './tokens-module.js';
