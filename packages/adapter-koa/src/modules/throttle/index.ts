export { throttleModule, type ThrottleModuleOptions } from './throttle-module.js';
