// "Void second charge" on the console's payments screen: a patient pays a link in the browser; a second approval for
// the same link lands at the sandbox gateway on another attempt and the product's own reconciliation worker flags it
// (as apps/server/test/support/payment-fixtures.ts flagSecondApproval does in-process). A billing user voids it from
// the console and sees the confirmation and the flag gone; a second billing user whose page still showed the flag, in
// Spanish, tries the same void and is told in Spanish that it was already given back (the server's refusal,
// already_resolved, shown in the console's language). axe after each state change.
// Needs DATABASE_URL (the attempt row and the gateway credentials are set up in the product's database, which PGlite
// keeps to one process); skipped without it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { payWithSandbox } from '../../apps/server/test/support/payment-fixtures.js';
import { expectAccessible } from '../support/a11y.js';
import type { TestLink } from '../support/admin.js';
import { CARDS, expectConfirmation, fillCard, payNow, walkToPayment, type Flow } from '../support/flows.js';
import type { RunningProduct } from '../support/server.js';
import { test } from '../support/test.js';
import { eventually } from '../support/wait.js';

test.skip(!process.env.DATABASE_URL, 'needs DATABASE_URL (sets up the second attempt in the product database)');

// Several cards load at once on the payments screen: wait until none is loading, in either language.
const settled = (page: Page) =>
  eventually(
    async () =>
      (await page
        .getByRole('status')
        .filter({ hasText: /Loading|Cargando/ })
        .count()) === 0,
    {
      message: 'every card loaded',
    },
  );

/**
 * A second approval for a paid link, the way it happens for real (a token handed out on one attempt, the card charged
 * with it after another attempt was recorded): a new attempt row, a gateway token for it (ssl_merchant_txn_id = the
 * attempt), the sandbox approves it, and the worker's next pass (every 15 s) finds it and flags it.
 */
async function secondApproval(
  product: RunningProduct,
  db: pg.Client,
  link: TestLink,
): Promise<{ attemptId: string; txnId: string }> {
  const attemptId = randomBytes(12).toString('hex');
  await db.query(
    `insert into payment_attempt (id, link_id, payment_id, amount_cents, gateway, status)
     select $2, link_id, payment_id, amount_cents, gateway, 'creating' from payment_attempt
      where link_id = $1 and status = 'approved'`,
    [link.id, attemptId],
  );
  const { rows } = await db.query<{ amount_cents: number; pin: string }>(
    `select a.amount_cents, (select value from app_secret where name = 'sandbox_gateway_pin') as pin
       from payment_attempt a where a.id = $1`,
    [attemptId],
  );
  const { amount_cents: amountCents, pin } = rows[0]!;
  const tokenAnswer = await fetch(`${product.gatewayOrigin}/hosted-payments/transaction_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ssl_merchant_id: '0099999',
      ssl_user_id: 'paylink_sandbox',
      ssl_pin: pin,
      ssl_transaction_type: 'ccsale',
      ssl_amount: (amountCents / 100).toFixed(2),
      ssl_merchant_txn_id: attemptId,
    }),
  });
  const token = await tokenAnswer.text();
  assert.equal(tokenAnswer.status, 200, token);
  await db.query(`update payment_attempt set status = 'open', session_token = $2 where id = $1`, [attemptId, token]);
  const { pay } = await payWithSandbox(product.gatewayOrigin, {
    sessionToken: token,
    card: CARDS.visaFrictionless,
    amountCents,
  });
  assert.equal(pay?.ssl_result, '0', 'the sandbox approved the second charge');
  await db.query(`update payment_attempt set reconcile_due_at = now() where id = $1`, [attemptId]);
  await eventually(
    async () =>
      (await db.query<{ status: string }>('select status from payment_attempt where id = $1', [attemptId])).rows[0]
        ?.status === 'duplicate',
    { timeout: 60_000, message: 'the reconciliation worker flagged the second approval' },
  );
  return { attemptId, txnId: pay.ssl_txn_id! };
}

test('billing voids a flagged second charge from the payments screen; a stale second try is refused in Spanish', async ({
  product,
  admin,
  openSession,
  staff,
}) => {
  const link = await admin.createLink({ firstName: 'Marta', lastName: 'Doblecargo' });

  // 1. The patient pays $500 in the browser.
  {
    const { page, close } = await openSession({ label: 'patient' });
    const f: Flow = { page, product, link, lng: 'en' };
    await walkToPayment(f, { type: 1, source: 1, amount: '500' });
    await fillCard(f, { number: CARDS.visaFrictionless });
    await payNow(f);
    await expectConfirmation(f, { amount: '$500.00' });
    await close();
  }

  // 2. A second approval at the gateway, flagged by reconciliation.
  const db = new pg.Client({ connectionString: product.env.DATABASE_URL });
  await db.connect();
  let flag: { attemptId: string; txnId: string };
  try {
    flag = await secondApproval(product, db, link);
  } finally {
    await db.end();
  }

  // 3. A billing user in Spanish opens the void dialog (and leaves it open: their page still shows the flag).
  const { page: es } = await staff('billing', { label: 'billing es', lng: 'es', locale: 'es-US' });
  await es.goto(`${product.baseUrl}/console/payments`);
  await es.getByRole('heading', { level: 1, name: 'Pagos' }).waitFor();
  await settled(es);
  const esFlags = es.getByRole('region', { name: 'Segundos cargos por anular' });
  const esRow = esFlags.getByRole('row').filter({ hasText: 'Marta Doblecargo' });
  await esRow.getByText(flag.txnId).waitFor();
  await esRow.getByRole('button', { name: 'Anular segundo cargo…' }).click();
  const esDialog = es.getByRole('dialog', { name: 'Anular el segundo cargo' });
  await esDialog.getByLabel('Motivo (queda en el registro de auditoría)').fill('Cargo duplicado');

  // 4. Billing voids it from the console in English: confirmation, the flag resolved, the recorded payment kept.
  {
    const { page, close } = await staff('billing', { label: 'billing en' });
    await page.goto(`${product.baseUrl}/console/payments`);
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await settled(page);
    const flags = page.getByRole('region', { name: 'Second charges to void' });
    const row = flags.getByRole('row').filter({ hasText: 'Marta Doblecargo' });
    await row.getByText(flag.txnId).waitFor();
    await row.getByText('Second approval').waitFor();
    await expectAccessible(page, 'console payments with a flagged second charge (en)');
    await row.getByRole('button', { name: 'Void second charge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Void the second charge' });
    await dialog.getByText(`(transaction ${flag.txnId})`, { exact: false }).waitFor();
    // The reason is required.
    await dialog.getByRole('button', { name: 'Void $500.00' }).click();
    await dialog.getByText('Give a reason.').waitFor();
    await dialog.getByLabel('Reason (kept in the audit trail)').fill('Second charge from a second tab');
    await dialog.getByRole('button', { name: 'Void $500.00' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await flags.getByRole('status').getByText('The second charge of $500.00 was given back.').waitFor();
    await flags.getByText('No second charges are waiting.').waitFor();
    await settled(page);
    await expectAccessible(page, 'console payments after the void (en)');
    // The recorded payment is untouched: no refund, nothing left to void.
    const { payments } = await admin.request<{
      payments: { linkId: string; attention: unknown[]; refunded: number }[];
    }>('GET', '/payments');
    const mine = payments.find((p) => p.linkId === link.id)!;
    assert.deepEqual(mine.attention, [], 'the flag is resolved');
    assert.equal(mine.refunded, 0, 'the recorded payment is not refunded');
    await close();
  }

  // 5. The Spanish page's void comes too late: the server refuses (already_resolved), shown in Spanish.
  await esDialog.getByRole('button', { name: /^Anular .*500/ }).click();
  await esDialog.getByText('Este segundo cargo ya se devolvió.').waitFor();
  assert.equal(
    await es.getByText('This flagged approval has already been resolved.').count(),
    0,
    "not the server's English sentence",
  );
  await expectAccessible(es, 'console void refused (es)');
});
