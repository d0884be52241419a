export { restModule, type RestModuleOptions } from './rest-module.js';
