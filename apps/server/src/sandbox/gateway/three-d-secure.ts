import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatUsd } from '@paylink/shared';
import { str } from './answers.js';
import { challengePage, webSdkScript, type ChallengeLang } from './browser-scripts.js';
import { fixedAsset, sendFixed } from './compressed.js';
import { sandboxScriptsVersion } from '../../lib/sandbox-gateway-scripts.js';
import { efsToken, sessionByEfs, type SandboxDb, type ThreeDSRow } from './store.js';
import { cardBrand, eciFor, newAuthenticationValue, testCardFor } from './test-cards.js';

/**
 * Elavon's 3-D Secure 2 service as its web SDK calls it: lookup + authentication in one call, the challenge page
 * (framed by the app and by this origin) and the result after a challenge. JSON in Elavon's field names.
 */
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

const threeDSError = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).send({ errorCode: String(status), errorMessage: message });

const challengeLang = (v: unknown): ChallengeLang => (v === 'es' ? 'es' : 'en');

export function threeDSecureRoutes(opts: {
  app: FastifyInstance;
  db: SandboxDb;
  origin: string;
  /** The app's origin: it frames the challenge page. */
  publicUrl: string;
}): void {
  const { app, db, origin } = opts;

  const sdk = fixedAsset(webSdkScript(origin), 'application/javascript; charset=utf-8');
  const version = sandboxScriptsVersion(origin);
  app.get<{ Querystring: { v?: string } }>('/3ds2/web-sdk.js', async (request, reply) =>
    sendFixed(request, reply, sdk, version),
  );

  // The challenge card answers 'C' with the challenge page's URL.
  app.post('/3ds2/authenticate', async (request, reply) => {
    const s = await sessionByEfs(db, request.headers.authorization);
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
      .header('content-security-policy', `frame-ancestors ${opts.publicUrl} ${origin}`);

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
    const action = str((request.body as Record<string, unknown> | undefined)?.action);
    const lang = challengeLang((request.body as Record<string, unknown> | undefined)?.lng);
    if (action !== 'authenticate' && action !== 'fail') {
      const known = await challengeRow(request.params.id);
      if (!known) return reply.status(404).type('text/plain').send('Unknown authentication.');
      return reply.status(400).type('text/plain').send('Choose Authenticate or Fail authentication.');
    }
    const status = action === 'authenticate' ? 'Y' : 'N';
    // The authentication read and its answer recorded in one statement (issue 30); a finished one is not changed.
    const r = /^[0-9a-f-]{36}$/i.test(request.params.id)
      ? await db.query<ThreeDSRow>(
          `with a as (select * from sandbox_gateway_3ds where id = $1 and challenge),
           u as (update sandbox_gateway_3ds t set trans_status = $2, trans_status_reason = $3,
               eci = case when a.card_brand = 'mastercard' then $4 else $5 end, authentication_value = $6,
               completed_at = now()
             from a where t.id = a.id and t.completed_at is null)
           select * from a`,
          [
            request.params.id,
            status,
            status === 'N' ? '01' : null,
            eciFor('mastercard', status),
            eciFor('visa', status),
            status === 'Y' ? newAuthenticationValue() : null,
          ],
        )
      : undefined;
    const row = r?.rows[0];
    if (!row) return reply.status(404).type('text/plain').send('Unknown authentication.');
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
    // The session and its authentication in one statement (issue 30).
    const efs = efsToken(request.headers.authorization);
    const r = efs
      ? await db.query<{ auth: ThreeDSRow | null }>(
          `select (select to_jsonb(a) from sandbox_gateway_3ds a where a.id = $2 and a.session_token = s.token) as auth
           from sandbox_gateway_session s where s.efs_token = $1 and s.expires_at > now()`,
          [
            efs,
            /^[0-9a-f-]{36}$/i.test(request.params.id) ? request.params.id : '00000000-0000-0000-0000-000000000000',
          ],
        )
      : undefined;
    const found = r?.rows[0];
    if (!found) return threeDSError(reply, 401, 'The 3-D Secure token is invalid or has expired.');
    const row = found.auth;
    if (!row) return threeDSError(reply, 404, 'Unknown authentication.');
    if (!row.completed_at) return threeDSError(reply, 409, 'The challenge has not been completed.');
    return threeDSResult(row);
  });
}
