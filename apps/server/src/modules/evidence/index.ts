export { evidenceRoutes } from './evidence-routes.js';
