export { contrastRatio, DEFAULT_COLOURS, isHexColour, type BrandColours, type Branding } from '../../pages/branding.js';
export { LoginBrowserSessions } from './browser-sessions.js';
export { loginModule, type LoginModuleOptions } from './login-module.js';
export { BROWSER_COOKIE, TICKET_GRANTING_COOKIE, WARN_COOKIE } from './login-cookies.js';
export { LOGIN_LANGUAGES, MESSAGES, type LoginLanguage, type Messages } from './messages.js';
