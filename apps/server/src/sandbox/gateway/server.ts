import { randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import { centsToDecimalString, formatUsd, parseDollarsToCents } from '@paylink/shared';
import { escapeXml } from '../../lib/escape.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { controlCharField } from '../../http/control-chars.js';
import { parseConvergeXml } from '../../providers/gateway/converge.js';
import { challengePage, checkoutScript, webSdkScript, type ChallengeLang } from './browser-scripts.js';
import { sandboxGatewayCredentials } from './credentials.js';
import {
  INVALID_CARD_MESSAGE,
  cardBrand,
  eciFor,
  isExpired,
  maskCard,
  newApprovalCode,
  newAuthenticationValue,
  newTxnId,
  testCardFor,
} from './test-cards.js';

/**
 * The sandbox card gateway: a separate service on its own origin (GATEWAY_ORIGIN) that behaves like Converge's
 * hosted payments + Elavon's 3DS2 service for the test cards in test-cards.ts. It shares the database but only its
 * own `sandbox_gateway_*` tables. Card numbers are used in memory and never stored or logged (brand + last 4 only).
 */
const SESSION_MINUTES = 15;

interface SessionRow {
  token: string;
  merchant_id: string;
  amount_cents: number;
  merchant_txn_id: string | null;
  first_name: string | null;
  last_name: string | null;
  efs_token: string | null;
  expires_at: Date;
  used_at: Date | null;
}

interface ThreeDSRow {
  id: string;
  session_token: string;
  card_brand: string;
  card_last4: string;
  purchase_amount_cents: number;
  challenge: boolean;
  trans_status: string | null;
  trans_status_reason: string | null;
  eci: string | null;
  authentication_value: string | null;
  ds_trans_id: string;
  acs_trans_id: string;
  message_version: string;
  completed_at: Date | null;
}

interface TxnRow {
  txn_id: string;
  merchant_id: string;
  merchant_txn_id: string | null;
  amount_cents: number;
  result: '0' | '1';
  result_message: string;
  approval_code: string | null;
  card_brand: string;
  card_last4: string;
  first_name: string | null;
  last_name: string | null;
  avs_response: string | null;
  cvv2_response: string | null;
  eci_ind: string | null;
  three_ds_trans_status: string | null;
  created_at: Date;
  settled_at: Date | null;
  voided_at: Date | null;
}

interface ReversalRow {
  txn_id: string;
  parent_txn_id: string;
  kind: 'VOID' | 'RETURN';
  amount_cents: number;
  created_at: Date;
}

/** A sale's batch closes at the sandbox's ccsettle call or, failing that, this long after the sale. */
const AUTO_SETTLE_HOURS = 24;
const isSettled = (t: TxnRow) =>
  t.settled_at !== null || Date.now() - new Date(t.created_at).getTime() >= AUTO_SETTLE_HOURS * 3600_000;

const SHORT: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'MC',
  amex: 'AMEX',
  discover: 'DISC',
  jcb: 'JCB',
  diners: 'DINERS',
};

export interface GatewayError {
  errorCode: string;
  errorName: string;
  errorMessage: string;
}
const gatewayError = (errorCode: string, errorName: string, errorMessage: string): GatewayError => ({
  errorCode,
  errorName,
  errorMessage,
});

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** Converge's time format: MM/DD/YYYY hh:mm:ss AM (UTC here). */
function convergeTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const h = d.getUTCHours();
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(h % 12 || 12)}:${p(
    d.getUTCMinutes(),
  )}:${p(d.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

function threeDSResult(r: ThreeDSRow) {
  return {
    transStatus: r.trans_status,
    ...(r.trans_status_reason ? { transStatusReason: r.trans_status_reason } : {}),
    eci: r.eci,
    ...(r.authentication_value ? { authenticationValue: r.authentication_value } : {}),
    authenticated: r.trans_status === 'Y' || r.trans_status === 'A',
    dsTransID: r.ds_trans_id,
    acsTransID: r.acs_trans_id,
    threeDSServerTransID: r.id,
    messageVersion: r.message_version,
  };
}

function txnFields(t: TxnRow): Record<string, string> {
  return {
    ssl_txn_id: t.txn_id,
    ssl_result: t.result,
    ssl_result_message: t.result_message,
    ssl_approval_code: t.approval_code ?? '',
    ssl_transaction_type: 'SALE',
    ssl_trans_status: t.result !== '0' ? 'DEC' : t.voided_at ? 'VOID' : isSettled(t) ? 'STL' : 'PEN',
    ssl_amount: centsToDecimalString(t.amount_cents),
    ssl_card_number: `${'*'.repeat(12)}${t.card_last4}`,
    ssl_card_short_description: SHORT[t.card_brand] ?? 'CARD',
    ssl_card_type: 'CREDITCARD',
    ssl_merchant_txn_id: t.merchant_txn_id ?? '',
    ssl_first_name: t.first_name ?? '',
    ssl_last_name: t.last_name ?? '',
    ssl_avs_response: t.avs_response ?? '',
    ssl_cvv2_response: t.cvv2_response ?? '',
    ssl_eci_ind: t.eci_ind ?? '',
    ssl_3ds_trans_status: t.three_ds_trans_status ?? '',
    ssl_txn_time: convergeTime(new Date(t.created_at)),
  };
}

const xmlFields = (f: Record<string, string>) =>
  Object.entries(f)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('');

export async function buildSandboxGateway(ctx: AppContext): Promise<FastifyInstance> {
  const { db, config } = ctx;
  const origin = config.gatewayOrigin;
  const app = Fastify({
    loggerInstance: ctx.log.child({ service: 'sandbox-gateway' }) as FastifyBaseLogger,
    bodyLimit: 64 * 1024,
  });
  await app.register(formbody);
  await app.register(cors, {
    origin: [config.publicUrl],
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ['content-type', 'authorization'],
  });
  // The same security headers as the app (issue 11, finding 6); its scripts are loaded and its challenge page is
  // framed by the app's origin only.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'unsafe-inline'"],
        'style-src': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': [config.publicUrl],
        'base-uri': ["'none'"],
        'object-src': ["'none'"],
      },
    },
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });
  // Control characters never reach the database (PostgreSQL refuses NUL); errors never echo their cause.
  app.addHook('preValidation', async (request, reply) => {
    const field = controlCharField(request);
    if (field) {
      return reply
        .status(400)
        .send(gatewayError('4009', 'Invalid Field', `${field} must not contain control characters.`));
    }
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'sandbox gateway error');
    return reply
      .status(status)
      .send(
        status === 500
          ? gatewayError('5000', 'Internal Error', 'The gateway could not process the request. Please try again.')
          : gatewayError('4009', 'Invalid Request', 'The request could not be read.'),
      );
  });

  const credsOk = async (f: Record<string, string>) => {
    const c = await sandboxGatewayCredentials(db);
    return (
      safeEqual(f.ssl_merchant_id ?? '', c.merchantId) &&
      safeEqual(f.ssl_user_id ?? '', c.userId) &&
      safeEqual(f.ssl_pin ?? '', c.pin)
    );
  };
  const INVALID_CREDS = gatewayError(
    '4025',
    'Invalid Credentials',
    'The credentials supplied in the authorization request are invalid.',
  );

  app.get('/healthz', async () => ({ status: 'ok' }));

  // Hosted payments: the server-side session token (Converge: form fields, plain-text token).
  app.post('/hosted-payments/transaction_token', async (request, reply) => {
    const f = Object.fromEntries(
      Object.entries((request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]),
    );
    if (!(await credsOk(f))) return reply.status(401).send(INVALID_CREDS);
    if (f.ssl_transaction_type?.toLowerCase() !== 'ccsale') {
      return reply
        .status(400)
        .send(gatewayError('4009', 'Required Field Not Supplied', 'ssl_transaction_type must be ccsale.'));
    }
    const amountCents = parseDollarsToCents(f.ssl_amount ?? '');
    if (!amountCents) {
      return reply.status(400).send(gatewayError('4009', 'Required Field Not Supplied', 'ssl_amount is invalid.'));
    }
    const token = randomBytes(32).toString('base64');
    await db.query(
      `insert into sandbox_gateway_session
         (token, merchant_id, amount_cents, merchant_txn_id, first_name, last_name, expires_at)
       values ($1, $2, $3, $4, $5, $6, now() + make_interval(mins => $7))`,
      [
        token,
        f.ssl_merchant_id,
        amountCents,
        f.ssl_merchant_txn_id || null,
        f.ssl_first_name || null,
        f.ssl_last_name || null,
        SESSION_MINUTES,
      ],
    );
    return reply.type('text/plain; charset=utf-8').send(token);
  });

  app.get('/hosted-payments/Checkout.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(checkoutScript(origin)),
  );
  app.get('/3ds2/web-sdk.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(webSdkScript(origin)),
  );

  const liveSession = async (q: Queryable, token: string) => {
    if (!token) return null;
    const r = await q.query<SessionRow>(
      'select * from sandbox_gateway_session where token = $1 and expires_at > now() and used_at is null',
      [token],
    );
    return r.rows[0] ?? null;
  };
  const SESSION_GONE = gatewayError('4017', 'Time-Out', 'The payment session has expired. Please try again.');

  // Checkout.js getEFSToken: a 3-D Secure token for this session.
  app.post('/hosted-payments/efs_token', async (request, reply) => {
    const token = str((request.body as Record<string, unknown> | undefined)?.ssl_txn_auth_token);
    const s = await liveSession(db, token);
    if (!s) return reply.status(200).send(SESSION_GONE);
    const efs = s.efs_token ?? randomBytes(24).toString('base64url');
    if (!s.efs_token) {
      await db.query('update sandbox_gateway_session set efs_token = $2 where token = $1', [token, efs]);
    }
    return { ssl_3ds2_token: efs };
  });

  const sessionByEfs = async (authorization: string | undefined) => {
    const efs = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!efs) return null;
    const r = await db.query<SessionRow>(
      'select * from sandbox_gateway_session where efs_token = $1 and expires_at > now()',
      [efs],
    );
    return r.rows[0] ?? null;
  };
  const threeDSError = (reply: FastifyReply, status: number, message: string) =>
    reply.status(status).send({ errorCode: String(status), errorMessage: message });

  // 3DS2: lookup + authentication in one call; the challenge card answers 'C' with the challenge page's URL.
  app.post('/3ds2/authenticate', async (request, reply) => {
    const s = await sessionByEfs(request.headers.authorization);
    if (!s) return threeDSError(reply, 401, 'The 3-D Secure token is invalid or has expired.');
    const b = (request.body ?? {}) as Record<string, unknown>;
    const acct = str(b.acctNumber).replace(/\s+/g, '');
    const expiry = str(b.cardExpiryDate);
    if (!/^\d{12,19}$/.test(acct)) return threeDSError(reply, 400, 'acctNumber must be the card number.');
    if (!/^\d{2}(0[1-9]|1[0-2])$/.test(expiry)) return threeDSError(reply, 400, 'cardExpiryDate must be YYMM.');
    if (str(b.purchaseCurrency) !== '840' || str(b.purchaseExponent) !== '2') {
      return threeDSError(reply, 400, 'purchaseCurrency must be 840 and purchaseExponent 2.');
    }
    if (!/^\d+$/.test(str(b.purchaseAmount)) || Number(str(b.purchaseAmount)) !== s.amount_cents) {
      return threeDSError(reply, 400, 'purchaseAmount does not match the payment session.');
    }
    const card = testCardFor(acct);
    const { brand } = cardBrand(acct);
    const id = randomUUID();
    // Luhn-invalid numbers pass 3DS here; the gateway refuses them at payment (error 5000), as the table says.
    const behaviour = 'invalid' in card ? ({ kind: 'frictionless', transStatus: 'Y' } as const) : card.threeDS;
    let status: string | null = null;
    let reason: string | null = null;
    if (behaviour.kind === 'frictionless') status = behaviour.transStatus;
    if (behaviour.kind === 'fail') {
      status = behaviour.transStatus;
      reason = behaviour.reason;
    }
    const r = await db.query<ThreeDSRow>(
      `insert into sandbox_gateway_3ds (id, session_token, card_brand, card_last4, purchase_amount_cents, challenge,
         trans_status, trans_status_reason, eci, authentication_value, ds_trans_id, acs_trans_id, completed_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning *`,
      [
        id,
        s.token,
        brand,
        acct.slice(-4),
        s.amount_cents,
        behaviour.kind === 'challenge',
        status ?? 'C',
        reason,
        status ? eciFor(brand, status) : null,
        status === 'Y' || status === 'A' ? newAuthenticationValue() : null,
        randomUUID(),
        randomUUID(),
        status ? new Date() : null,
      ],
    );
    const row = r.rows[0]!;
    if (behaviour.kind === 'challenge') {
      return {
        transStatus: 'C',
        threeDSServerTransID: id,
        acsTransID: row.acs_trans_id,
        dsTransID: row.ds_trans_id,
        messageVersion: row.message_version,
        challengeUrl: `${origin}/3ds2/challenge/${id}`,
      };
    }
    return threeDSResult(row);
  });

  const challengeRow = async (id: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const r = await db.query<ThreeDSRow>('select * from sandbox_gateway_3ds where id = $1 and challenge', [id]);
    return r.rows[0] ?? null;
  };
  const challengeHeaders = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', `frame-ancestors ${config.publicUrl} ${origin}`);

  const challengeLang = (v: unknown): ChallengeLang => (v === 'es' ? 'es' : 'en');

  app.get<{ Params: { id: string }; Querystring: { lng?: string } }>('/3ds2/challenge/:id', async (request, reply) => {
    const row = await challengeRow(request.params.id);
    if (!row) return reply.status(404).type('text/plain').send('Unknown authentication.');
    const lang = challengeLang(request.query.lng);
    return challengeHeaders(reply).send(
      challengePage({
        id: row.id,
        last4: row.card_last4,
        amount: formatUsd(row.purchase_amount_cents, lang === 'es' ? 'es-US' : 'en-US'),
        done: row.completed_at ? 'finished' : undefined,
        lang,
      }),
    );
  });

  app.post<{ Params: { id: string } }>('/3ds2/challenge/:id', async (request, reply) => {
    const row = await challengeRow(request.params.id);
    if (!row) return reply.status(404).type('text/plain').send('Unknown authentication.');
    const action = str((request.body as Record<string, unknown> | undefined)?.action);
    const lang = challengeLang((request.body as Record<string, unknown> | undefined)?.lng);
    if (action !== 'authenticate' && action !== 'fail') {
      return reply.status(400).type('text/plain').send('Choose Authenticate or Fail authentication.');
    }
    const status = action === 'authenticate' ? 'Y' : 'N';
    await db.query(
      `update sandbox_gateway_3ds set trans_status = $2, trans_status_reason = $3, eci = $4,
         authentication_value = $5, completed_at = now()
       where id = $1 and completed_at is null`,
      [
        row.id,
        status,
        status === 'N' ? '01' : null,
        eciFor(row.card_brand, status),
        status === 'Y' ? newAuthenticationValue() : null,
      ],
    );
    return challengeHeaders(reply).send(
      challengePage({
        id: row.id,
        last4: row.card_last4,
        amount: formatUsd(row.purchase_amount_cents, lang === 'es' ? 'es-US' : 'en-US'),
        done: status === 'Y' ? 'authenticated' : 'failed',
        lang,
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/3ds2/result/:id', async (request, reply) => {
    const s = await sessionByEfs(request.headers.authorization);
    if (!s) return threeDSError(reply, 401, 'The 3-D Secure token is invalid or has expired.');
    const r = await db.query<ThreeDSRow>('select * from sandbox_gateway_3ds where id = $1 and session_token = $2', [
      /^[0-9a-f-]{36}$/i.test(request.params.id) ? request.params.id : '00000000-0000-0000-0000-000000000000',
      s.token,
    ]);
    const row = r.rows[0];
    if (!row) return threeDSError(reply, 404, 'Unknown authentication.');
    if (!row.completed_at) return threeDSError(reply, 409, 'The challenge has not been completed.');
    return threeDSResult(row);
  });

  // Checkout.js pay: the sale itself. The session token is single use: claiming it is the no-double-charge guard.
  app.post('/hosted-payments/process', async (request) => {
    const b = Object.fromEntries(
      Object.entries((request.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, str(v)]),
    );
    const number = (b.ssl_card_number ?? '').replace(/[\s-]+/g, '');
    const exp = b.ssl_exp_date ?? '';
    if (!/^\d{12,19}$/.test(number) && number !== '') {
      // Non-digits: Converge treats it as an invalid card number.
      return gatewayError('5000', 'Credit Card Number Invalid', INVALID_CARD_MESSAGE);
    }
    if (!number || !exp) {
      return gatewayError('4009', 'Required Field Not Supplied', 'The card number and expiration date are required.');
    }
    if (!/^(0[1-9]|1[0-2])\d{2}$/.test(exp)) {
      return gatewayError('5002', 'Invalid Expiration Date', 'The expiration date supplied is invalid (MMYY).');
    }
    return db.transaction(async (tx) => {
      const claimed = await tx.query<SessionRow>(
        `update sandbox_gateway_session set used_at = now()
         where token = $1 and used_at is null and expires_at > now() returning *`,
        [b.ssl_txn_auth_token ?? ''],
      );
      const s = claimed.rows[0];
      if (!s) {
        const used = await tx.query('select 1 from sandbox_gateway_session where token = $1 and used_at is not null', [
          b.ssl_txn_auth_token ?? '',
        ]);
        return used.rowCount > 0
          ? gatewayError(
              '4001',
              'Session Already Used',
              'This payment session has already been used. Please try again.',
            )
          : SESSION_GONE;
      }
      const card = testCardFor(number);
      if ('invalid' in card) return gatewayError('5000', 'Credit Card Number Invalid', INVALID_CARD_MESSAGE);
      if (card.pay.kind === 'error') return gatewayError(card.pay.code, card.pay.name, card.pay.message);
      const { brand, short } = cardBrand(number);

      // 3-D Secure: when the browser sends an authentication, it must be this session's, for this card, and passed.
      let eciInd = b.ssl_eci_ind || '7';
      let threeDSStatus: string | null = null;
      let threeDSId: string | null = null;
      if (b.ssl_3ds_server_trans_id) {
        const a = await tx.query<ThreeDSRow>(
          'select * from sandbox_gateway_3ds where id::text = $1 and session_token = $2',
          [b.ssl_3ds_server_trans_id, s.token],
        );
        const auth = a.rows[0];
        if (!auth || auth.card_last4 !== number.slice(-4)) {
          return gatewayError(
            '4009',
            'Required Field Not Supplied',
            'The 3-D Secure authentication does not belong to this card and payment.',
          );
        }
        threeDSId = auth.id;
        threeDSStatus = auth.trans_status;
        eciInd = auth.trans_status === 'Y' ? '5' : auth.trans_status === 'A' ? '6' : '7';
      }

      let result: '0' | '1' = '0';
      let message = 'APPROVAL';
      let cvv = 'M';
      let avs = 'Y';
      if (isExpired(exp)) {
        result = '1';
        message = 'EXPIRED CARD';
      } else if (threeDSStatus && threeDSStatus !== 'Y' && threeDSStatus !== 'A') {
        result = '1';
        message = 'DECLINED: 3DS AUTHENTICATION FAILED';
      } else if (card.pay.kind === 'decline') {
        result = '1';
        message = card.pay.message;
        cvv = card.pay.cvv;
        avs = card.pay.avs;
      }
      const txnId = newTxnId();
      const approval = result === '0' ? newApprovalCode() : null;
      const t = await tx.query<TxnRow>(
        `insert into sandbox_gateway_transaction (txn_id, session_token, merchant_id, merchant_txn_id, amount_cents,
           result, result_message, approval_code, card_brand, card_last4, first_name, last_name, avs_response,
           cvv2_response, eci_ind, three_ds_server_trans_id, three_ds_trans_status)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning *`,
        [
          txnId,
          s.token,
          s.merchant_id,
          s.merchant_txn_id,
          s.amount_cents,
          result,
          message,
          approval,
          brand,
          number.slice(-4),
          b.ssl_first_name || s.first_name,
          b.ssl_last_name || s.last_name,
          avs,
          cvv,
          eciInd,
          threeDSId,
          threeDSStatus,
        ],
      );
      const fields = txnFields(t.rows[0]!);
      return {
        ...fields,
        ssl_card_number: maskCard(number),
        ssl_card_short_description: short,
        ...(result === '0' && b.ssl_get_token === 'Y'
          ? { ssl_token: `${randomInt(1e11, 1e12 - 1)}${number.slice(-4)}`, ssl_token_response: 'SUCCESS' }
          : {}),
      };
    });
  });

  // Converge's XML API: txnquery by ssl_txn_id, ccvoid, ccreturn, and ccsettle (closes the batch: the sandbox's way to
  // make sales settled in tests and demos).
  const xmlError = (code: string, name: string, message: string) =>
    `<txn>${xmlFields({ ...gatewayError(code, name, message) })}</txn>`;
  const reversalFields = (r: ReversalRow, parent: TxnRow): Record<string, string> => ({
    ssl_txn_id: r.txn_id,
    ssl_result: '0',
    ssl_result_message: 'APPROVAL',
    ssl_transaction_type: r.kind,
    ssl_trans_status: 'PEN',
    ssl_amount: centsToDecimalString(r.amount_cents),
    ssl_card_number: `${'*'.repeat(12)}${parent.card_last4}`,
    ssl_card_short_description: SHORT[parent.card_brand] ?? 'CARD',
    ssl_approval_code: '',
    ssl_txn_time: convergeTime(new Date(r.created_at)),
  });
  const NOT_FOUND = () =>
    xmlError('5040', 'Invalid Transaction ID', 'The transaction ID is invalid for this transaction type.');

  const reverse = async (f: Record<string, string>, kind: 'VOID' | 'RETURN') =>
    db.transaction(async (tx) => {
      const r = await tx.query<TxnRow>(
        'select * from sandbox_gateway_transaction where txn_id = $1 and merchant_id = $2 for update',
        [f.ssl_txn_id ?? '', f.ssl_merchant_id],
      );
      const t = r.rows[0];
      if (!t || t.result !== '0') return NOT_FOUND();
      if (t.voided_at) return xmlError('5040', 'Invalid Transaction ID', 'The transaction has already been voided.');
      const done = await tx.query<{ sum: number }>(
        `select coalesce(sum(amount_cents), 0)::int as sum from sandbox_gateway_reversal where parent_txn_id = $1`,
        [t.txn_id],
      );
      const remaining = t.amount_cents - done.rows[0]!.sum;
      let amount = remaining;
      if (kind === 'VOID') {
        if (isSettled(t)) {
          return xmlError(
            '5040',
            'Invalid Transaction ID',
            'The transaction has settled and cannot be voided; use ccreturn.',
          );
        }
      } else {
        if (!isSettled(t)) {
          return xmlError('5040', 'Invalid Transaction ID', 'The transaction has not settled yet; use ccvoid.');
        }
        if (f.ssl_amount !== undefined && f.ssl_amount !== '') {
          const cents = parseDollarsToCents(f.ssl_amount);
          if (!cents) return xmlError('4013', 'Invalid Amount', 'ssl_amount is invalid.');
          amount = cents;
        }
        if (remaining <= 0 || amount > remaining) {
          return xmlError(
            '5012',
            'Amount Exceeds Original',
            `The return amount exceeds the amount left on the transaction (${centsToDecimalString(remaining)}).`,
          );
        }
      }
      const id = newTxnId();
      const ins = await tx.query<ReversalRow>(
        `insert into sandbox_gateway_reversal (txn_id, parent_txn_id, merchant_id, kind, amount_cents)
         values ($1, $2, $3, $4, $5) returning *`,
        [id, t.txn_id, t.merchant_id, kind, amount],
      );
      if (kind === 'VOID') {
        await tx.query('update sandbox_gateway_transaction set voided_at = now() where txn_id = $1', [t.txn_id]);
      }
      return `<txn>${xmlFields(reversalFields(ins.rows[0]!, t))}</txn>`;
    });

  // A gateway outage on demand (tests and demos of issue 10: the gateway down while a payment is confirmed). Only the
  // XML API (txnquery, void, return) goes down; card pages and payments keep working, as in a partial outage.
  let xmlApiDown = false;
  app.post('/sandbox/xml-api-outage', async (request) => {
    xmlApiDown = (request.body as { down?: unknown } | undefined)?.down === true;
    return { xmlApiDown };
  });

  const processXml = async (request: { body: unknown }, reply: FastifyReply) => {
    if (xmlApiDown) return reply.code(503).type('text/plain; charset=utf-8').send('Service Unavailable');
    reply.type('application/xml; charset=utf-8');
    const xml = str((request.body as Record<string, unknown> | undefined)?.xmldata);
    const { txns } = parseConvergeXml(xml);
    const f = txns[0] ?? {};
    if (!(await credsOk(f))) return `<txn>${xmlFields({ ...INVALID_CREDS })}</txn>`;
    const type = (f.ssl_transaction_type ?? '').toLowerCase();
    if (type === 'ccsettle') {
      // Closes the batch: every open sale of this merchant (or the one named by ssl_txn_id) becomes settled.
      const r = await db.query(
        `update sandbox_gateway_transaction set settled_at = now()
         where merchant_id = $1 and settled_at is null and voided_at is null and result = '0'
           and ($2 = '' or txn_id = $2)`,
        [f.ssl_merchant_id, f.ssl_txn_id ?? ''],
      );
      return `<txn>${xmlFields({ ssl_result: '0', ssl_result_message: 'BATCH SETTLED', ssl_txn_count: String(r.rowCount) })}</txn>`;
    }
    if (!['txnquery', 'ccvoid', 'ccreturn'].includes(type)) {
      return xmlError(
        '4009',
        'Invalid Transaction Type',
        'The sandbox answers txnquery, ccvoid, ccreturn and ccsettle.',
      );
    }
    if (type === 'txnquery' && !f.ssl_txn_id && f.ssl_merchant_txn_id) {
      // Search by our merchant transaction id, as Converge's txnquery with a date range.
      const m = await db.query<TxnRow>(
        'select * from sandbox_gateway_transaction where merchant_txn_id = $1 and merchant_id = $2 order by created_at',
        [f.ssl_merchant_txn_id, f.ssl_merchant_id],
      );
      return `<txnlist><ssl_txn_count>${m.rowCount}</ssl_txn_count>${m.rows
        .map((t) => `<txn>${xmlFields(txnFields(t))}</txn>`)
        .join('')}</txnlist>`;
    }
    if (!f.ssl_txn_id) return xmlError('4009', 'Required Field Not Supplied', 'ssl_txn_id is required.');
    if (type === 'ccvoid') return reverse(f, 'VOID');
    if (type === 'ccreturn') return reverse(f, 'RETURN');
    const r = await db.query<TxnRow>(
      'select * from sandbox_gateway_transaction where txn_id = $1 and merchant_id = $2',
      [f.ssl_txn_id, f.ssl_merchant_id],
    );
    if (r.rowCount === 0) {
      const rev = await db.query<ReversalRow & { parent: TxnRow }>(
        `select r.*, to_jsonb(t) as parent from sandbox_gateway_reversal r
         join sandbox_gateway_transaction t on t.txn_id = r.parent_txn_id where r.txn_id = $1 and r.merchant_id = $2`,
        [f.ssl_txn_id, f.ssl_merchant_id],
      );
      return `<txnlist><ssl_txn_count>${rev.rowCount}</ssl_txn_count>${rev.rows
        .map((x) => `<txn>${xmlFields(reversalFields(x, x.parent))}</txn>`)
        .join('')}</txnlist>`;
    }
    return `<txnlist><ssl_txn_count>${r.rowCount}</ssl_txn_count>${r.rows
      .map((t) => `<txn>${xmlFields(txnFields(t))}</txn>`)
      .join('')}</txnlist>`;
  };
  app.post('/VirtualMerchantDemo/processxml.do', processXml);
  app.post('/VirtualMerchant/processxml.do', processXml);

  return app;
}
