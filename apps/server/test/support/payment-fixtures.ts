import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { StepRoutes, stepRoutesFor, type PaymentSourceId } from '@paylink/shared';
import type { AppContext } from '../../src/context.js';
import { newLinkId } from '../../src/lib/ids.js';
import { sandboxGatewayFor } from '../../src/side-servers.js';
import { apiHeaders, createTestApp, mintPatientToken } from './context.js';
import { freePort } from './ports.js';

export { freePort };

/**
 * Test support for the payment tests: the real app and the real sandbox gateway (its own HTTP server on a free port),
 * one database, and links at the payment step. Not used by the product.
 */

export interface PaymentTestEnv {
  app: FastifyInstance;
  ctx: AppContext;
  gateway: FastifyInstance;
  gatewayOrigin: string;
  close: () => Promise<void>;
}

export async function startPaymentTestEnv(env: Record<string, string> = {}): Promise<PaymentTestEnv> {
  const port = await freePort();
  const gatewayOrigin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ GATEWAY_ORIGIN: gatewayOrigin, ...env });
  const gateway = await sandboxGatewayFor(t.ctx);
  await gateway.listen({ port, host: '127.0.0.1' });
  return {
    app: t.app,
    ctx: t.ctx,
    gateway,
    gatewayOrigin,
    close: async () => {
      await gateway.close();
      await t.close();
    },
  };
}

export interface TestLink {
  linkId: string;
  token: string;
  headers: Record<string, string>;
  paymentStepId: number;
  amountCents: number;
}

/** A link whose earlier steps are done and whose payment (default $500 by the patient) is chosen. */
export async function createLinkAtPaymentStep(
  ctx: AppContext,
  opts: {
    amountDollars?: number;
    source?: PaymentSourceId;
    language?: 'en' | 'es';
    email?: string;
    payorEmail?: string | null;
    /** Payor-paid links: whether the payment authorisation is signed (default true). */
    authorizationSigned?: boolean;
  } = {},
): Promise<TestLink> {
  const id = newLinkId();
  const source = opts.source ?? 1;
  const amountCents = (opts.amountDollars ?? 500) * 100;
  await ctx.db.query(
    `insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email, payor_name,
       payor_email, procedure_description, sign_in_method, language, expires_at)
     values ($1, 'Ana', 'García', '1 Main St', 'Austin', 'Texas', '73301', '5125550100', $2, $3, $4,
       'Rhinoplasty consultation', 'sms', $5, now() + interval '7 days')`,
    [
      id,
      opts.email ?? 'ana@example.com',
      source === 2 ? 'Pat Payor' : null,
      source === 2 ? (opts.payorEmail ?? null) : null,
      opts.language ?? 'en',
    ],
  );
  const routes = stepRoutesFor(source);
  for (const [i, route] of routes.entries()) {
    const done = route !== StepRoutes.payment && route !== StepRoutes.confirmation;
    await ctx.db.query(
      `insert into link_step (link_id, position, route_path, status_id, completed_at)
       values ($1, $2, $3, $4, $5)`,
      [id, i + 1, route, done ? 4 : route === StepRoutes.payment ? 2 : 1, done ? new Date() : null],
    );
  }
  await ctx.db.query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents) values ($1, 1, $2, $3)`,
    [id, source, amountCents],
  );
  const step = await ctx.db.query<{ id: number }>('select id from link_step where link_id = $1 and route_path = $2', [
    id,
    StepRoutes.payment,
  ]);
  if (source === 2 && opts.authorizationSigned !== false) {
    const hex = () => createHash('sha256').update(randomBytes(16)).digest('hex');
    await ctx.db.query(
      `insert into submission (token_hash, link_id, link_step_id, kind, status, signer_name, signature_method,
         completed_at, original_sha256, signed_storage_key)
       values ($1, $2, $3, 'payment_authorization', 'completed', 'Pat Payor', 'type', now(), $4, 'test/signed.pdf')`,
      [hex(), id, step.rows[0]!.id, hex()],
    );
  }
  const token = await mintPatientToken(ctx, id);
  return { linkId: id, token, headers: apiHeaders(ctx, token), paymentStepId: step.rows[0]!.id, amountCents };
}

/** What the browser scripts send to the gateway, done over HTTP as Checkout.js + the 3DS SDK would. */
export async function payWithSandbox(
  gatewayOrigin: string,
  opts: {
    sessionToken: string;
    card: string;
    amountCents: number;
    expiry?: string;
    challenge?: 'authenticate' | 'fail';
    skip3ds?: boolean;
  },
): Promise<{ threeDS: Record<string, string> | null; pay: Record<string, string> | null }> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${gatewayOrigin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return (await r.json()) as Record<string, string>;
  };
  // Valid through 2099: the scheduler's tests run in 2098 and the sandbox judges expiry by the pass's clock (0246).
  const expiry = opts.expiry ?? '1299';
  const efs = await post('/hosted-payments/efs_token', { ssl_txn_auth_token: opts.sessionToken });
  if (efs.errorCode) return { threeDS: null, pay: efs };
  let threeDS: Record<string, string> | null = null;
  if (!opts.skip3ds) {
    const auth = { authorization: `Bearer ${efs.ssl_3ds2_token}` };
    threeDS = await post(
      '/3ds2/authenticate',
      {
        messageId: 'EFSTransaction',
        purchaseAmount: String(opts.amountCents),
        purchaseCurrency: '840',
        purchaseExponent: '2',
        acctNumber: opts.card,
        cardExpiryDate: `${expiry.slice(2)}${expiry.slice(0, 2)}`,
        messageCategory: '01',
        transType: '01',
        challengeWindowSize: '02',
        displayMode: 'lightbox',
      },
      auth,
    );
    if (threeDS.transStatus === 'C') {
      const page = await fetch(threeDS.challengeUrl!);
      if (!page.ok) throw new Error(`challenge page ${page.status}`);
      await fetch(threeDS.challengeUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `action=${opts.challenge ?? 'authenticate'}`,
      });
      const r = await fetch(`${gatewayOrigin}/3ds2/result/${threeDS.threeDSServerTransID}`, { headers: auth });
      threeDS = (await r.json()) as Record<string, string>;
    }
    if (['R', 'U', 'N'].includes(threeDS.transStatus ?? '')) return { threeDS, pay: null };
  }
  const eci = threeDS?.eci ?? '';
  const pay = await post('/hosted-payments/process', {
    ssl_txn_auth_token: opts.sessionToken,
    ssl_card_number: opts.card,
    ssl_exp_date: expiry,
    ssl_get_token: 'Y',
    ssl_add_token: 'Y',
    ssl_first_name: 'Ana',
    ssl_last_name: 'Garcia',
    ssl_cvv2cvc2: '123',
    ssl_avs_address: '1 Main St',
    ssl_avs_zip: '73301',
    ssl_city: 'Austin',
    ssl_program_protocol: '2',
    ssl_dir_server_tran_id: threeDS?.dsTransID ?? '',
    ssl_eci_ind: eci === '02' || eci === '05' ? '5' : eci === '01' || eci === '06' ? '6' : '7',
    ssl_3dsecure_value: threeDS?.authenticationValue ?? '',
    ssl_3ds_message_version: threeDS?.messageVersion ?? '',
    ssl_3ds_trans_status: threeDS?.transStatus ?? '',
    ssl_3ds_trans_status_reason: threeDS?.transStatusReason ?? '',
    ssl_3ds_server_trans_id: threeDS?.threeDSServerTransID ?? '',
    ssl_merchant_txn_id: '',
  });
  return { threeDS, pay };
}

/** POST /api/converge as the payment page does. */
export async function requestSessionToken(
  env: PaymentTestEnv,
  link: TestLink,
  amount = String(link.amountCents / 100),
) {
  return env.app.inject({ method: 'POST', url: `/api/converge?amount=${amount}`, headers: link.headers });
}

export async function confirm(env: PaymentTestEnv, link: TestLink, transactionId: string, extra: object = {}) {
  return env.app.inject({
    method: 'PUT',
    url: '/api/linkpaymenthistory',
    headers: link.headers,
    payload: { linkId: link.linkId, transactionId, payorFullName: 'Ana Garcia', payorEmail: '', ...extra },
  });
}

/**
 * A second approval for an already paid link, flagged by the real reconciliation pass (issue 10): a second tab had its
 * own token and paid too. Returns the flagged attempt's id and the second transaction id.
 */
export async function flagSecondApproval(env: PaymentTestEnv, link: TestLink) {
  const { reconcileDueAttempts } = await import('../../src/modules/payments/reconcile-payment.js');
  const id = randomBytes(12).toString('hex');
  await env.ctx.db.query(
    `insert into payment_attempt (id, link_id, payment_id, amount_cents, gateway, status)
     select $2, link_id, payment_id, amount_cents, gateway, 'creating' from payment_attempt where link_id = $1 limit 1`,
    [link.linkId, id],
  );
  const token = await env.ctx.providers.gateway.createSessionToken({
    amountCents: link.amountCents,
    merchantTxnId: id,
  });
  await env.ctx.db.query(`update payment_attempt set status = 'open', session_token = $2 where id = $1`, [id, token]);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: token,
    card: '4000000000000002',
    amountCents: link.amountCents,
  });
  if (pay?.ssl_result !== '0') throw new Error('the sandbox did not approve the second charge');
  await env.ctx.db.query(`update payment_attempt set reconcile_due_at = now() where id = $1`, [id]);
  await reconcileDueAttempts({ db: env.ctx.db, gateway: env.ctx.providers.gateway });
  const row = await env.ctx.db.query<{ status: string }>('select status from payment_attempt where id = $1', [id]);
  if (row.rows[0]?.status !== 'duplicate')
    throw new Error(`the second approval was not flagged (${row.rows[0]?.status})`);
  return { attemptId: id, txnId: pay.ssl_txn_id! };
}
