export { describeFormTokenStore, type FormTokenStoreFactory } from './form-token-store-contract.js';
export { describeServiceSessionStore, type ServiceSessionStoreFactory } from './service-session-store-contract.js';
export { describeSingleLogoutOnStores, type SingleLogoutStores, type SingleLogoutStoresFactory } from './single-logout-cases.js';
export { describeLoginStoresOnRecords } from './stores-on-records.js';
export { RecordingLogoutSender } from './recording-logout-sender.js';
