/**
 * Real-user load times: web-vitals is loaded lazily once the page is idle; its metrics, each with the route it was
 * measured on (the path only: query strings carry link ids), are POSTed to /api/vitals together, in one request, when
 * the page is hidden or left (issue 30: one request and one statement for a page's metrics, not one per metric).
 */
import { patientEndpoints, VITALS_PER_REQUEST_MAX, type RequestOf, type patientRoutes } from '@paylink/shared';
import { API_KEY } from './api-client';

type VitalsBody = RequestOf<typeof patientRoutes.vitals>['body'];
type VitalMetric = Extract<VitalsBody, { name: string }>;
type Metric = Pick<VitalMetric, 'name' | 'value' | 'rating' | 'id' | 'navigationType'>;

const queue: VitalMetric[] = [];

/** Not call(): a keepalive request that goes without the session and survives the page closing. */
function flush() {
  if (queue.length === 0) return;
  const body = JSON.stringify(queue.splice(0, VITALS_PER_REQUEST_MAX) satisfies VitalsBody);
  void fetch(patientEndpoints.vitals.path, {
    method: patientEndpoints.vitals.method,
    body,
    keepalive: true,
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', 'x-api-key': API_KEY, 'ngrok-skip-browser-warning': 'true' },
  }).catch(() => undefined);
  flush();
}

function add(metric: Metric) {
  queue.push({
    name: metric.name,
    value: Math.max(0, Math.round(metric.value * 1000) / 1000),
    rating: metric.rating,
    // Where it was measured, not where the page is when the batch goes.
    route: window.location.pathname.slice(0, 200),
    id: metric.id?.slice(0, 100),
    navigationType: metric.navigationType?.slice(0, 40),
  });
  // A metric reported while the page is already hidden (web-vitals reports CLS, INP and LCP then) goes with the
  // others it reports at that moment; a full batch goes at once.
  if (document.visibilityState === 'hidden' || queue.length >= VITALS_PER_REQUEST_MAX) queueMicrotask(flush);
}

export function startVitals() {
  const start = () =>
    void import('web-vitals')
      .then(({ onCLS, onFCP, onINP, onLCP, onTTFB }) => {
        onCLS(add);
        onFCP(add);
        onINP(add);
        onLCP(add);
        onTTFB(add);
        // After web-vitals' own listeners (it listens in the capture phase), so what it reports on hiding is in the batch.
        addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());
        addEventListener('pagehide', flush);
      })
      .catch(() => undefined);
  if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 5000 });
  else setTimeout(start, 2000);
}
