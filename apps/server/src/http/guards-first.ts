import type { FastifyInstance, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';

/**
 * Credential guards that need only the headers run before the body is parsed and validated, whatever hook a route
 * lists them under: a caller without a valid staff token learns nothing about the body's shape (401 before 400)
 * and costs no parsing (issue 11, finding 6).
 */
const GUARDS_FIRST = new WeakSet<object>();

export function markGuardFirst<T extends (...args: never[]) => Promise<void>>(guard: T): T {
  GUARDS_FIRST.add(guard);
  return guard;
}

type Hook = preHandlerAsyncHookHandler | onRequestAsyncHookHandler;
const asList = (h: unknown): Hook[] => (h === undefined || h === null ? [] : ([h].flat() as Hook[]));

/** Registers an onRoute hook (before any route) that moves marked preHandlers to onRequest. */
export function guardsBeforeValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const pre = asList(route.preHandler);
    const first = pre.filter((h) => GUARDS_FIRST.has(h));
    if (!first.length) return;
    route.preHandler = pre.filter((h) => !GUARDS_FIRST.has(h)) as preHandlerAsyncHookHandler[];
    route.onRequest = [...asList(route.onRequest), ...first] as onRequestAsyncHookHandler[];
  });
}
