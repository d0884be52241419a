export { proxyModule, type ProxyModuleOptions } from './proxy-module.js';
