import { createHash } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request owns an Idempotency-Key row: its answer is stored in onSend. */
    idempotency?: { staffUserId: string; key: string; route: string };
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Sign-in has no staff user yet; everything else under /api/admin that changes something takes a key. */
const EXEMPT = new Set(['/api/admin/login']);
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** How long a request with the same key waits for the first one to finish before answering 409. */
const WAIT_MS = 60_000;
const POLL_MS = 50;

interface KeyRow {
  request_hash: string;
  status: 'in_progress' | 'done';
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
}

const toArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * One Idempotency-Key mechanism for every mutating admin route (decision 0150): keyed by staff user + key + route
 * (method and path), the first request runs and its answer (status, type, body) is stored; a later request with the
 * same key gets that answer again (header `Idempotent-Replayed: true`), a concurrent one waits for it, and the same key
 * with a different body is refused 422. 500 answers are not stored, so a retry can run again.
 * Call before the route modules are registered (it wraps each route as it is declared).
 */
export function installIdempotency(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  const preHandler: preHandlerHookHandler = async function (request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.staff) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (!KEY_RE.test(key)) {
      throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
    }
    const route = `${request.method} ${request.url.split('?')[0]}`;
    const hash = createHash('sha256')
      .update(`${route}\n${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const staffUserId = request.staff.userId;
    const inserted = await db.query(
      `insert into idempotency_key (staff_user_id, key, route, request_hash) values ($1, $2, $3, $4)
       on conflict do nothing`,
      [staffUserId, key, route, hash],
    );
    if (inserted.rowCount > 0) {
      request.idempotency = { staffUserId, key, route };
      return;
    }
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const r = await db.query<KeyRow>(
        `select request_hash, status, response_status, response_type, response_body from idempotency_key
         where staff_user_id = $1 and key = $2 and route = $3`,
        [staffUserId, key, route],
      );
      const row = r.rows[0];
      if (!row) {
        // The first request ended in a 500 and released the key: this one runs instead.
        const again = await db.query(
          `insert into idempotency_key (staff_user_id, key, route, request_hash) values ($1, $2, $3, $4)
           on conflict do nothing`,
          [staffUserId, key, route, hash],
        );
        if (again.rowCount > 0) {
          request.idempotency = { staffUserId, key, route };
          return;
        }
        continue;
      }
      if (row.request_hash !== hash) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
        );
      }
      if (row.status === 'done') {
        reply.header('idempotent-replayed', 'true');
        if (row.response_type) reply.type(row.response_type);
        return reply.status(row.response_status ?? 200).send(row.response_body ?? '');
      }
      if (Date.now() > deadline) {
        throw new AppError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed. Try again in a moment.',
        );
      }
      await wait(POLL_MS);
    }
  };

  const onSend: onSendHookHandler = async function (request, reply, payload) {
    const own = request.idempotency;
    if (!own) return payload;
    request.idempotency = undefined;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (reply.statusCode === 500 || body === null) {
      await db.query('delete from idempotency_key where staff_user_id = $1 and key = $2 and route = $3', [
        own.staffUserId,
        own.key,
        own.route,
      ]);
      return payload;
    }
    const type = reply.getHeader('content-type');
    await db.query(
      `update idempotency_key set status = 'done', response_status = $4, response_type = $5, response_body = $6,
         completed_at = now()
       where staff_user_id = $1 and key = $2 and route = $3`,
      [own.staffUserId, own.key, own.route, reply.statusCode, typeof type === 'string' ? type : null, body],
    );
    return payload;
  };

  app.addHook('onRoute', (opts: RouteOptions) => {
    const methods = toArray(opts.method as string | string[]);
    if (!opts.url.startsWith('/api/admin/') || EXEMPT.has(opts.url)) return;
    if (!methods.some((m) => MUTATING.has(m.toUpperCase()))) return;
    // After the route's own preHandlers (the staff guard sets request.staff).
    opts.preHandler = [...toArray(opts.preHandler), preHandler];
    opts.onSend = [...toArray(opts.onSend), onSend];
  });
}
