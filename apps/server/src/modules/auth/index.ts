export { authRoutes } from './auth-routes.js';
export { getSignInHint } from './get-sign-in-hint.js';
