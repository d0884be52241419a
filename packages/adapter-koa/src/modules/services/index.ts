export { servicesModule, type ServicesModuleOptions } from './services-module.js';
