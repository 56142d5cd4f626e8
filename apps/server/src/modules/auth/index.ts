export { authRoutes } from './auth-routes.js';
export { getSignInHint, getSignInScreenValues } from './get-sign-in-hint.js';
