export { vitalsRoutes } from './vitals-routes.js';
