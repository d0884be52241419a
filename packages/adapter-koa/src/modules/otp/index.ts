export { otpExtractor } from './otp-extractor.js';
