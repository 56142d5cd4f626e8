import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { staffToken } from '../../seed/seed-staff.js';
import { mintPatientToken } from '../../../test/support/context.js';
import {
  createLinkAtPaymentStep,
  confirm,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';
import {
  BAD_JSON,
  CONTROL_STRINGS,
  HOSTILE_STRINGS,
  databaseFingerprint,
  prng,
  wrongTypeFor,
  type Rng,
} from '../../../test/support/fuzz.js';

/**
 * Issue 11, "nets that keep it closed": requests generated from the OpenAPI document (plus the few hidden routes),
 * each carrying at least one definite violation of the contract (broken JSON, a wrong type, a missing field, a
 * control character, an oversized body, an unknown id, a missing or foreign credential, a bad query value) with
 * hostile strings sprinkled over the rest. Every answer must be a 4xx with a message, within 10 s, and the database
 * must be exactly as before. Seeded: FUZZ_SEED=<n> reproduces a run; FUZZ_REQUESTS sets the count.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 5200);

/** Tables whose rows are patient data or money: their contents (not only counts) must not move. */
const PATIENT_TABLES = [
  'link',
  'link_step',
  'payment',
  'payment_attempt',
  'payment_log',
  'submission',
  'submission_file',
  'refund',
  'patient_session',
  'otp_challenge',
  'email_signin_token',
  'message_opt_out',
  'link_reminder',
  'staff_user',
  'webhook_endpoint',
  'practice_override',
  'practice_contract',
] as const;

/**
 * Tables a refusal may legitimately write to: the audit trail (refused staff calls are audited), the staff sign-in
 * failure counter (a malformed sign-in still counts against the growing delay) and the idempotency store (keys are
 * reserved before validation and released on a 4xx), and the per-database keys (app_secret), created on first use.
 */
const REFUSAL_TABLES = new Set(['audit_event', 'staff_sign_in_failure', 'idempotency_key', 'app_secret']);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maxLength?: number;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
interface Op {
  method: string;
  path: string;
  pathParams: string[];
  query: { name: string; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
  /** How the route is reached: none, the API key, the API key + a link's session, a staff token, a Twilio signature. */
  auth: 'none' | 'apiKey' | 'patient' | 'staff' | 'twilio';
}

type Violation =
  | 'bad-json'
  | 'wrong-content-type'
  | 'wrong-type'
  | 'missing-required'
  | 'control-chars'
  | 'oversize'
  | 'unknown-id'
  | 'no-credentials'
  | 'bad-credentials'
  | 'foreign-session'
  | 'bad-query';

let env: PaymentTestEnv;
let ops: Op[];
let creds: { apiKey: string; sessionA: string; sessionB: string; staff: string; linkA: string };

function opsFromOpenApi(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Op[] {
  const out: Op[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        security?: Record<string, unknown>[];
      };
      const params = op.parameters ?? [];
      const security = op.security ?? [];
      const schemes = new Set(security.flatMap((s) => Object.keys(s)));
      const auth: Op['auth'] = schemes.has('apiKey')
        ? schemes.has('bearer')
          ? 'patient'
          : 'apiKey'
        : schemes.has('bearer') || schemes.has('staffCookie')
          ? 'staff'
          : 'none';
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: !!p.required, schema: p.schema ?? {} })),
        body: op.requestBody?.content['application/json']?.schema,
        auth,
      });
    }
  }
  // Routes hidden from the document (they are not part of the integration contract) are fuzzed too.
  out.push(
    { method: 'GET', path: '/api/patients/{linkId}/notoken', pathParams: ['linkId'], query: [], auth: 'apiKey' },
    { method: 'POST', path: '/api/webhooks/twilio/status', pathParams: [], query: [], auth: 'twilio' },
    { method: 'POST', path: '/api/webhooks/twilio/sms', pathParams: [], query: [], auth: 'twilio' },
  );
  return out;
}

const typeOf = (s: JsonSchema | undefined): string | undefined => {
  if (!s) return undefined;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  const alt = s.anyOf ?? s.oneOf;
  return alt ? typeOf(alt.find((x) => x.type !== 'null')) : undefined;
};

/** A plausible value for a schema (the violation is applied on top). */
function sample(s: JsonSchema | undefined, rng: Rng, depth = 0): unknown {
  if (!s || depth > 4) return 'x';
  if (s.enum?.length) return rng.pick(s.enum);
  switch (typeOf(s)) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if (s.required?.includes(k) || rng.chance(0.5)) o[k] = sample(v, rng, depth + 1);
      }
      return o;
    }
    case 'array':
      return [sample(s.items, rng, depth + 1)];
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return rng.chance(0.5);
    default:
      if (s.format === 'email') return 'fuzz@example.com';
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return '2026-01-01';
      return rng.chance(0.5) ? rng.pick(HOSTILE_STRINGS) : 'x';
  }
}

/** Query values that a typed parameter (enum, number, date, uuid) refuses. */
const strictQuery = (q: Op['query'][number]) => {
  const t = typeOf(q.schema);
  return !!q.schema.enum?.length || t === 'integer' || t === 'number' || !!q.schema.format;
};

function violationsFor(op: Op): Violation[] {
  const v: Violation[] = [];
  const bodyProps = op.body?.properties ? Object.keys(op.body.properties) : [];
  if (op.body) v.push('bad-json', 'wrong-content-type', 'oversize');
  if (bodyProps.length) v.push('wrong-type', 'control-chars');
  if (op.body?.required?.length) v.push('missing-required');
  if (op.pathParams.length) v.push('unknown-id', 'control-chars');
  if (op.query.some(strictQuery)) v.push('bad-query');
  if (op.auth !== 'none') v.push('no-credentials');
  // Signing out with a session that is already invalid is a successful no-op (204), not an error.
  if (op.auth !== 'none' && op.path !== '/api/auth/logout') v.push('bad-credentials');
  const linkBound =
    op.pathParams.includes('linkId') || op.query.some((q) => q.name === 'linkId') || bodyProps.includes('linkId');
  if (op.auth === 'patient' && linkBound) v.push('foreign-session');
  return v;
}

interface Req {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  violation: Violation;
}

function buildRequest(op: Op, rng: Rng): Req {
  const violation = rng.pick(violationsFor(op));
  const headers: Record<string, string> = {};
  const pathValues: Record<string, string> = {};
  for (const p of op.pathParams) pathValues[p] = creds.linkA;
  const query: [string, string][] = [];
  for (const q of op.query) {
    if (q.required || rng.chance(0.4)) {
      const v = q.name === 'linkId' ? creds.linkA : sample(q.schema, rng);
      query.push([q.name, String(v)]);
    }
  }
  const body: unknown = op.body ? sample(op.body, rng) : undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'linkId' in (op.body?.properties ?? {})) {
    (body as Record<string, unknown>).linkId = creds.linkA;
  }
  let rawBody: string | undefined;
  let contentType = op.auth === 'twilio' ? 'application/x-www-form-urlencoded' : 'application/json';

  // Credentials as a legitimate caller would send them; a violation below may take them away.
  if (op.auth === 'apiKey' || op.auth === 'patient') headers['x-api-key'] = creds.apiKey;
  if (op.auth === 'patient') headers.authorization = `Bearer ${creds.sessionA}`;
  if (op.auth === 'staff') headers.authorization = `Bearer ${creds.staff}`;

  const stringProps = () =>
    Object.entries(op.body?.properties ?? {})
      .filter(([, s]) => typeOf(s) === 'string')
      .map(([k]) => k);

  switch (violation) {
    case 'bad-json':
      rawBody = rng.pick(BAD_JSON);
      break;
    case 'wrong-content-type':
      contentType = rng.pick([
        'text/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=zz',
        'application/octet-stream',
        'text/plain',
        'application/json; charset=utf-7',
      ]);
      rawBody = rng.pick(['<a>1</a>', 'a=1&b=2', '--zz\r\n\r\n--zz--', '\u00ff\u00fe', 'plain text', '+AHs-']);
      break;
    case 'wrong-type': {
      const props = Object.entries(op.body!.properties!);
      const required = props.filter(([k]) => op.body!.required?.includes(k));
      const [k, s] = rng.pick(required.length ? required : props);
      (body as Record<string, unknown>)[k] = wrongTypeFor(typeOf(s), rng);
      break;
    }
    case 'missing-required':
      delete (body as Record<string, unknown>)[rng.pick(op.body!.required!)];
      break;
    case 'control-chars': {
      const strings = stringProps();
      if (op.pathParams.length && (!strings.length || rng.chance(0.5))) {
        pathValues[rng.pick(op.pathParams)] = `${creds.linkA}${rng.pick(CONTROL_STRINGS)}`;
      } else {
        const k = strings.length ? rng.pick(strings) : Object.keys(op.body!.properties!)[0]!;
        (body as Record<string, unknown>)[k] = rng.pick(CONTROL_STRINGS);
      }
      break;
    }
    case 'oversize':
      // Past BODY_LIMIT_BYTES (1 MiB by default).
      rawBody = JSON.stringify({ ...(body as object), padding: 'A'.repeat(1024 * 1024 + 10) });
      break;
    case 'unknown-id':
      pathValues[rng.pick(op.pathParams)] = rng.pick([
        crypto.randomUUID(),
        String(rng.int(1e9)),
        'a'.repeat(rng.pick([1, 64, 5000])),
        ...HOSTILE_STRINGS.filter((s) => s.trim() !== '' && !/^\d+$/.test(s)),
      ]);
      break;
    case 'no-credentials':
      delete headers['x-api-key'];
      delete headers.authorization;
      break;
    case 'bad-credentials':
      if (op.auth === 'apiKey' || (op.auth === 'patient' && rng.chance(0.4))) headers['x-api-key'] = 'wrong-key';
      else if (op.auth === 'twilio') headers['x-twilio-signature'] = 'bm90IGEgc2lnbmF0dXJl';
      else
        headers.authorization = rng.pick([
          'Bearer ',
          'Bearer x.y.z',
          'Bearer eyJhbGciOiJub25lIn0.eyJzaWQiOiJhIn0.',
          `Bearer ${(op.auth === 'patient' ? creds.sessionA : creds.staff).slice(0, -3)}abc`,
          'Basic YWRtaW46YWRtaW4=',
          `Bearer ${'A'.repeat(9000)}`,
        ]);
      break;
    case 'foreign-session':
      headers.authorization = `Bearer ${creds.sessionB}`;
      break;
    case 'bad-query': {
      const q = rng.pick(op.query.filter(strictQuery));
      const bad = rng.pick(['-1x', 'abc', '1e309', "' OR 1=1 --", '9'.repeat(40), '2026-13-45', '{}']);
      const i = query.findIndex(([n]) => n === q.name);
      if (i >= 0) query[i] = [q.name, bad];
      else query.push([q.name, bad]);
      break;
    }
  }

  // Noise on top: an unknown field, a prototype key, a duplicated query parameter.
  if (body && typeof body === 'object' && !Array.isArray(body) && rng.chance(0.3)) {
    (body as Record<string, unknown>)[rng.pick(['__proto__', 'constructor', 'isAdmin', 'amountCents', 'role'])] = {
      polluted: true,
    };
  }
  if (query.length && rng.chance(0.2)) query.push([query[0]![0], rng.pick(HOSTILE_STRINGS)]);

  /** URL-encodes, turning lone surrogates into the invalid UTF-8 bytes an attacker would send. */
  const enc = (v: string) =>
    v
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');
  let path = op.path;
  for (const [k, v] of Object.entries(pathValues)) path = path.replace(`{${k}}`, enc(v));
  const qs = query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  const url = qs ? `${path}?${qs}` : path;
  if (op.auth === 'twilio' && rawBody === undefined) rawBody = 'From=%2B15550100&Body=STOP&MessageSid=SM1';
  const payload =
    rawBody ?? (op.method === 'GET' || op.method === 'DELETE' || body === undefined ? undefined : JSON.stringify(body));
  if (payload !== undefined) headers['content-type'] = contentType;
  return { method: op.method, url, headers, payload, violation };
}

beforeAll(async () => {
  env = await startPaymentTestEnv();
  const admin = await staffToken(env.ctx.db, { email: 'fuzz-admin@example.com', role: 'admin' });
  // Data worth protecting: a paid link, a link at the payment step (with an attempt), a fresh link.
  const paid = await createLinkAtPaymentStep(env.ctx, { email: 'paid@example.com' });
  const sessionToken = (await requestSessionToken(env, paid)).body;
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken,
    card: '4000000000000002',
    amountCents: paid.amountCents,
  });
  expect((await confirm(env, paid, String(pay?.ssl_txn_id))).statusCode).toBe(200);
  const a = await createLinkAtPaymentStep(env.ctx, { email: 'a@example.com' });
  const { link: b } = await seedLink(env.ctx, { email: 'b@example.com', phone: '(555) 010-7788' });
  creds = {
    apiKey: env.ctx.config.apiKey,
    sessionA: a.token,
    sessionB: await mintPatientToken(env.ctx, b.id),
    staff: admin,
    linkA: a.linkId,
  };
  ops = opsFromOpenApi(env.app.swagger() as never);
}, 120_000);
afterAll(async () => env?.close());

describe('fuzz from the OpenAPI document (issue 11)', () => {
  it(`${TOTAL} malformed requests: every answer a 4xx with a message, no hang, the database unchanged`, async () => {
    const before = await databaseFingerprint(env.ctx.db, PATIENT_TABLES);
    const rng = prng(SEED);
    const perOp = Math.ceil(TOTAL / ops.length);
    const failures: string[] = [];
    const byStatus: Record<number, number> = {};
    let sent = 0;
    for (const op of ops) {
      for (let i = 0; i < perOp; i++) {
        const req = buildRequest(op, rng);
        const res = await Promise.race([
          env.app.inject({ ...req, remoteAddress: '203.0.113.9' }),
          new Promise<null>((r) => setTimeout(r, 10_000, null).unref()),
        ]);
        sent++;
        const label = `${req.violation} ${req.method} ${req.url.slice(0, 120)}`;
        if (!res) {
          failures.push(`hang: ${label}`);
          continue;
        }
        byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
        if (res.statusCode < 400 || res.statusCode >= 500) {
          failures.push(`${res.statusCode}: ${label} → ${res.body.slice(0, 160)}`);
          continue;
        }
        // JSON answers carry `message`; the spec's text/plain routes (the phone lookup) answer with the text itself.
        const type = String(res.headers['content-type'] ?? '');
        const message = type.includes('json')
          ? (res.json() as { message?: unknown }).message
          : type.startsWith('text/plain')
            ? res.body
            : undefined;
        if (typeof message !== 'string' || !message.trim()) {
          failures.push(`no message: ${label} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    const after = await databaseFingerprint(env.ctx.db, PATIENT_TABLES);
    for (const t of REFUSAL_TABLES) {
      delete before.counts[t];
      delete after.counts[t];
    }
    console.info(
      `fuzz: seed ${SEED}, ${sent} requests over ${ops.length} operations; answers ${JSON.stringify(byStatus)}`,
    );
    expect(failures.slice(0, 40)).toEqual([]);
    expect(after).toEqual(before);
    expect(sent).toBeGreaterThanOrEqual(5000);
  }, 600_000);
});
