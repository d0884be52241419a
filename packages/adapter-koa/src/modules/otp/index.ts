export { otpExtractor } from './otp-extractor.js';
export { otpModule } from './otp-module.js';
