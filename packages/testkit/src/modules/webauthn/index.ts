export { SoftwareAuthenticator, type AnswerOptions, type CeremonyOptions } from './software-authenticator.js';
export { describeWebAuthnDevices, type WebAuthnDevicesFactory } from './devices-contract.js';
export { describeWebAuthnStoresOnRecords } from './stores-on-records.js';
