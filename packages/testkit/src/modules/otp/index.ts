export { describeOtpReplayStore, type OtpReplayStoreFactory } from './otp-replay-store-contract.js';
export { describeOtpStoresOnRecords } from './stores-on-records.js';
