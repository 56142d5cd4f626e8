import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  APPROVAL_MESSAGE,
  CONVERGE_PATHS,
  ERROR_CODE,
  RESULT,
  TOKEN_SUCCESS,
  TXN_TYPE,
  YES,
  centsFromConverge,
  convergeError,
  type ConvergeCredentials,
} from '../../providers/gateway/converge-protocol.js';
import { INVALID_CREDS, SESSION_GONE, credentialsMatch, formFields, str, txnFields } from './answers.js';
import { checkoutScript } from './browser-scripts.js';
import { fixedAsset, sendFixed } from './compressed.js';
import { sandboxScriptsVersion } from '../../lib/sandbox-gateway-scripts.js';
import {
  SESSION_FLAG,
  SESSION_MINUTES,
  sessionFlags,
  recordSale,
  withSessionFlags,
  type SandboxDb,
  type SessionRow,
  type ThreeDSRow,
} from './store.js';
import {
  EXPIRED_MESSAGE,
  INVALID_CARD_MESSAGE,
  cardBrand,
  cardTokenFor,
  isExpired,
  maskCard,
  newApprovalCode,
  newTxnId,
  nextMonthExpiry,
  testCardFor,
} from './test-cards.js';

/**
 * Converge's hosted payments: the server-side session token, Checkout.js, its 3-D Secure token (getEFSToken) and the
 * sale itself (pay). The session token is single use: claiming it is the no-double-charge guard.
 */
export function hostedPaymentRoutes(opts: {
  app: FastifyInstance;
  db: SandboxDb;
  origin: string;
  credentials: () => Promise<ConvergeCredentials>;
}): void {
  const { app, db, origin } = opts;

  // Form fields in, the token as plain text out.
  app.post(CONVERGE_PATHS.sessionToken, async (request, reply) => {
    const f = formFields(request.body);
    if (!credentialsMatch(f, await opts.credentials())) return reply.status(401).send(INVALID_CREDS);
    const type = f.ssl_transaction_type?.toLowerCase();
    if (type !== TXN_TYPE.sale && type !== TXN_TYPE.verify) {
      return reply
        .status(400)
        .send(
          convergeError(
            ERROR_CODE.requiredField,
            'Required Field Not Supplied',
            'ssl_transaction_type must be ccsale or ccverify.',
          ),
        );
    }
    // A verification (ccverify) charges nothing: its session's amount is 0, which is how the sale it becomes is told
    // apart from a sale (every sale has an amount).
    const verify = type === TXN_TYPE.verify;
    const amountCents = verify ? 0 : centsFromConverge(f.ssl_amount ?? '');
    if (!verify && !amountCents) {
      return reply
        .status(400)
        .send(convergeError(ERROR_CODE.requiredField, 'Required Field Not Supplied', 'ssl_amount is invalid.'));
    }
    const flags =
      (f.ssl_get_token === YES ? SESSION_FLAG.getToken : 0) | (f.ssl_add_token === YES ? SESSION_FLAG.addToken : 0);
    if (verify && !(flags & SESSION_FLAG.getToken)) {
      // A verification here exists to tokenise a card (decision 0211); without a token it would do nothing.
      return reply
        .status(400)
        .send(
          convergeError(ERROR_CODE.requiredField, 'Required Field Not Supplied', 'ccverify needs ssl_get_token=Y.'),
        );
    }
    const token = withSessionFlags(randomBytes(32), flags);
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

  const checkout = fixedAsset(checkoutScript(origin), 'application/javascript; charset=utf-8');
  const version = sandboxScriptsVersion(origin);
  app.get<{ Querystring: { v?: string } }>('/hosted-payments/Checkout.js', async (request, reply) =>
    sendFixed(request, reply, checkout, version),
  );

  // Checkout.js getEFSToken: a 3-D Secure token for this session.
  app.post('/hosted-payments/efs_token', async (request, reply) => {
    const token = str((request.body as Record<string, unknown> | undefined)?.ssl_txn_auth_token);
    // One statement: a live session keeps the EFS token it was first given (issue 30).
    const r = token
      ? await db.query<{ efs_token: string }>(
          `update sandbox_gateway_session set efs_token = coalesce(efs_token, $2)
           where token = $1 and expires_at > now() and used_at is null returning efs_token`,
          [token, randomBytes(24).toString('base64url')],
        )
      : undefined;
    const efs = r?.rows[0]?.efs_token;
    if (!efs) return reply.status(200).send(SESSION_GONE);
    return { ssl_3ds2_token: efs };
  });

  // Checkout.js pay: the sale itself.
  app.post('/hosted-payments/process', async (request) => {
    const b = formFields(request.body);
    const number = (b.ssl_card_number ?? '').replace(/[\s-]+/g, '');
    const exp = b.ssl_exp_date ?? '';
    if (!/^\d{12,19}$/.test(number) && number !== '') {
      // Non-digits: Converge treats it as an invalid card number.
      return convergeError(ERROR_CODE.invalidCard, 'Credit Card Number Invalid', INVALID_CARD_MESSAGE);
    }
    if (!number || !exp) {
      return convergeError(
        ERROR_CODE.requiredField,
        'Required Field Not Supplied',
        'The card number and expiration date are required.',
      );
    }
    if (!/^(0[1-9]|1[0-2])\d{2}$/.test(exp)) {
      return convergeError('5002', 'Invalid Expiration Date', 'The expiration date supplied is invalid (MMYY).');
    }
    // Asked before the sale's statements: the credentials come from the same database (one connection under PGlite).
    const tokenKey = (await opts.credentials()).pin;
    const sessionToken = b.ssl_txn_auth_token ?? '';
    // The session and the browser's 3-D Secure authentication (if any) in one read; the sale is then claimed and
    // recorded in one statement (issue 30: 2 statements where a transaction took 5).
    const read = await db.query<SessionRow & { live: boolean; auth: ThreeDSRow | null }>(
      `select s.*, s.expires_at > now() as live,
         (select to_jsonb(a) from sandbox_gateway_3ds a where a.id::text = $2 and a.session_token = s.token) as auth
       from sandbox_gateway_session s where s.token = $1`,
      [sessionToken, b.ssl_3ds_server_trans_id ?? ''],
    );
    const s = read.rows[0];
    const alreadyUsed = () =>
      convergeError('4001', 'Session Already Used', 'This payment session has already been used. Please try again.');
    if (s?.used_at) return alreadyUsed();
    if (!s?.live) return SESSION_GONE;
    // A refused card uses the session up, as the sale would have (Converge's session token is single use).
    const refuse = async (answer: ReturnType<typeof convergeError>) => {
      const r = await db.query(
        'update sandbox_gateway_session set used_at = now() where token = $1 and used_at is null',
        [s.token],
      );
      return r.rowCount > 0 ? answer : alreadyUsed();
    };
    const card = testCardFor(number);
    if ('invalid' in card) {
      return refuse(convergeError(ERROR_CODE.invalidCard, 'Credit Card Number Invalid', INVALID_CARD_MESSAGE));
    }
    if (card.pay.kind === 'error') return refuse(convergeError(card.pay.code, card.pay.name, card.pay.message));
    const { brand, short } = cardBrand(number);

    // 3-D Secure: when the browser sends an authentication, it must be this session's, for this card, and passed.
    let eciInd = b.ssl_eci_ind || '7';
    let threeDSStatus: string | null = null;
    let threeDSId: string | null = null;
    if (b.ssl_3ds_server_trans_id) {
      const auth = s.auth;
      if (!auth || auth.card_last4 !== number.slice(-4)) {
        return refuse(
          convergeError(
            ERROR_CODE.requiredField,
            'Required Field Not Supplied',
            'The 3-D Secure authentication does not belong to this card and payment.',
          ),
        );
      }
      threeDSId = auth.id;
      threeDSStatus = auth.trans_status;
      eciInd = auth.trans_status === 'Y' ? '5' : auth.trans_status === 'A' ? '6' : '7';
    }

    let result: '0' | '1' = RESULT.approved;
    let message = APPROVAL_MESSAGE;
    let cvv = 'M';
    let avs = 'Y';
    if (isExpired(exp)) {
      result = RESULT.declined;
      message = EXPIRED_MESSAGE;
    } else if (threeDSStatus && threeDSStatus !== 'Y' && threeDSStatus !== 'A') {
      result = RESULT.declined;
      message = 'DECLINED: 3DS AUTHENTICATION FAILED';
    } else if (card.pay.kind === 'decline') {
      result = RESULT.declined;
      message = card.pay.message;
      cvv = card.pay.cvv;
      avs = card.pay.avs;
    }
    const txnId = newTxnId();
    const approval = result === RESULT.approved ? newApprovalCode() : null;
    const firstName = b.ssl_first_name || s.first_name;
    const lastName = b.ssl_last_name || s.last_name;
    // The card is tokenised when the session or the browser's pay call asks (Converge takes either); stored in
    // Card Manager only with ssl_add_token. Only an approved sale stores a card.
    const flags = sessionFlags(s.token);
    const getToken = b.ssl_get_token === YES || (flags & SESSION_FLAG.getToken) !== 0;
    const addToken = b.ssl_add_token === YES || (flags & SESSION_FLAG.addToken) !== 0;
    let token: { ssl_token: string; ssl_token_response: string; ssl_exp_date: string } | null = null;
    if (result === RESULT.approved && (getToken || addToken)) {
      const expiry = card.storedExpiry === 'next-month' ? nextMonthExpiry() : exp;
      token = {
        ssl_token: cardTokenFor(number, s.merchant_id, tokenKey),
        ssl_token_response: TOKEN_SUCCESS,
        ssl_exp_date: expiry,
      };
    }
    // The claim (single use: the no-double-charge guard), the sale and the stored card: one statement.
    const t = await recordSale(db, {
      sessionToken: s.token,
      txn: {
        txn_id: txnId,
        merchant_id: s.merchant_id,
        merchant_txn_id: s.merchant_txn_id,
        amount_cents: s.amount_cents,
        result,
        result_message: message,
        approval_code: approval,
        card_brand: brand,
        card_last4: number.slice(-4),
        first_name: firstName,
        last_name: lastName,
        avs_response: avs,
        cvv2_response: cvv,
        eci_ind: eciInd,
        three_ds_server_trans_id: threeDSId,
        three_ds_trans_status: threeDSStatus,
      },
      card: token && addToken ? { token: token.ssl_token, expiry: token.ssl_exp_date, firstName, lastName } : null,
    });
    if (!t) return alreadyUsed();
    return {
      ...txnFields(t),
      ssl_card_number: maskCard(number),
      ssl_card_short_description: short,
      ...token,
    };
  });
}
