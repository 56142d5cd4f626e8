export { consoleAuthRoutes } from './console-auth-routes.js';
export { resealTotpSecrets } from './totp.js';
