/**
 * Real-user load times: web-vitals is loaded lazily once the page is idle and each metric is POSTed to /api/vitals
 * with the route it was measured on (the path only: query strings carry link ids).
 */
import { patientEndpoints, type RequestOf, type patientRoutes } from '@paylink/shared';
import { API_KEY } from './api-client';

type VitalsBody = RequestOf<typeof patientRoutes.vitals>['body'];
type Metric = Pick<VitalsBody, 'name' | 'value' | 'rating' | 'id' | 'navigationType'>;

/** Not call(): a keepalive request that goes without the session and survives the page closing. */
function send(metric: Metric) {
  const body = JSON.stringify({
    name: metric.name,
    value: Math.max(0, Math.round(metric.value * 1000) / 1000),
    rating: metric.rating,
    route: window.location.pathname.slice(0, 200),
    id: metric.id?.slice(0, 100),
    navigationType: metric.navigationType?.slice(0, 40),
  } satisfies VitalsBody);
  void fetch(patientEndpoints.vitals.path, {
    method: patientEndpoints.vitals.method,
    body,
    keepalive: true,
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', 'x-api-key': API_KEY, 'ngrok-skip-browser-warning': 'true' },
  }).catch(() => undefined);
}

export function startVitals() {
  const start = () =>
    void import('web-vitals')
      .then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
        onCLS(send);
        onFCP(send);
        onINP(send);
        onLCP(send);
        onTTFB(send);
      })
      .catch(() => undefined);
  if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 5000 });
  else setTimeout(start, 2000);
}
