import type { Route } from './define-route.js';
import { consoleRoutes } from './console-routes.js';
import { patientRoutes } from './patient-routes.js';

/** Every route of the table, for the server's registration test (the clients use the endpoint tables). */
export const routeTable: Readonly<Record<string, Readonly<Record<string, Route>>>> = {
  patient: patientRoutes,
  console: consoleRoutes,
};
