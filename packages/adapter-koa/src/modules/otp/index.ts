export { otpExtractor } from './otp-extractor.js';
export { otpFormField, otpMessages, OTP_MESSAGES, type OtpMessages } from './otp-field.js';
export { otpModule } from './otp-module.js';
