export { describeThrottleStore, type ThrottleStoreFactory } from './throttle-store-contract.js';
export { describeRequestRateStore, type RequestRateStoreFactory } from './request-rate-store-contract.js';
export { MapThrottleStore } from './map-throttle-store.js';
