export { proxyModule } from './proxy-module.js';
