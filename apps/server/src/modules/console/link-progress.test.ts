import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/client.js';
import { staffToken } from '../../seed/seed-staff.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
} from '../../../test/support/payment-fixtures.js';

/*
 * link_progress (migration 0203, decision 0224) is kept by triggers on link, link_step, payment, patient_session and
 * audit_event. After every kind of write, each row must equal what its definition computes from those tables (what
 * the board's step summary and the funnel's facts aggregated per request before).
 */
const FIELDS = `created_at, created_by, status, expires_at, steps_total, steps_completed, reached, reached_pos,
  has_payor, sent_at, opened_at, signed_in_at, patient_info_at, invoice_at, patient_id_at, payor_id_at, contract_at,
  payment_at, paid_at`;
const stepAt = (route: string) => `max(s.completed_at) filter (where s.route_path = '${route}')`;
const DERIVED_SQL = `
  select l.id as link_id, l.created_at, l.created_by, l.status, l.expires_at,
    coalesce(st.total, 0) as steps_total, coalesce(st.completed, 0) as steps_completed,
    case when coalesce(st.total, 0) = 0 then 'not_started' when st.completed = st.total then 'done'
      else st.reached_route end as reached,
    st.reached_pos, coalesce(st.has_payor, false) as has_payor,
    (select min(a.at) from audit_event a where a.link_id = l.id and a.action in ('link.sent', 'link.resent'))
      as sent_at,
    (select min(a.at) from audit_event a where a.link_id = l.id and a.action = 'patient.phone_lookup') as opened_at,
    (select min(ps.created_at) from patient_session ps where ps.link_id = l.id) as signed_in_at,
    st.patient_info_at, st.invoice_at, st.patient_id_at, st.payor_id_at, st.contract_at, st.payment_at,
    (select p.paid_at from payment p where p.link_id = l.id and p.status = 'approved') as paid_at
  from link l left join lateral (
    select count(*)::int as total, count(*) filter (where s.status_id = 4)::int as completed,
      min(s.position) filter (where s.status_id <> 4) as reached_pos,
      (array_agg(s.route_path order by s.position) filter (where s.status_id <> 4))[1] as reached_route,
      bool_or(s.route_path = '${StepRoutes.payorId}') as has_payor,
      ${stepAt(StepRoutes.patientInfo)} as patient_info_at, ${stepAt(StepRoutes.invoice)} as invoice_at,
      ${stepAt(StepRoutes.patientId)} as patient_id_at, ${stepAt(StepRoutes.payorId)} as payor_id_at,
      ${stepAt(StepRoutes.contract)} as contract_at, ${stepAt(StepRoutes.payment)} as payment_at
    from link_step s where s.link_id = l.id) st on true`;

/** Every link's stored progress and its derived one, as comparable text. */
async function progressRows(db: Queryable, where = 'true') {
  const asText = (from: string) =>
    `select link_id, jsonb_build_object(${FIELDS.split(',')
      .map((f) => `'${f.trim()}', ${f.trim()}::text`)
      .join(', ')})::text as row from (${from}) x where ${where} order by link_id`;
  const stored = await db.query<{ link_id: string; row: string }>(
    asText(`select link_id, ${FIELDS} from link_progress`),
  );
  const derived = await db.query<{ link_id: string; row: string }>(asText(DERIVED_SQL));
  return { stored: stored.rows, derived: derived.rows };
}

async function expectProgressRight(db: Queryable, where = 'true') {
  const { stored, derived } = await progressRows(db, where);
  expect(stored.length).toBe(derived.length);
  expect(stored).toEqual(derived);
}

let env: PaymentTestEnv;
let admin: Record<string, string>;
beforeAll(async () => {
  env = await startPaymentTestEnv();
  admin = { authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'admin@example.com', role: 'admin' })}` };
});
afterAll(async () => env?.close());

const progressOf = async (id: string) =>
  (await env.ctx.db.query<Record<string, unknown>>('select * from link_progress where link_id = $1', [id])).rows[0]!;

describe('link_progress', () => {
  it('follows a link created and sent by staff, signed in to, paid, voided and cancelled', async () => {
    const created = await env.app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: admin,
      payload: { firstName: 'Eva', lastName: 'Lopez', phone: '(555) 201-0003', send: 'sms' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const p = await progressOf(id);
    expect(p).toMatchObject({ status: 'active', reached: 'not_started' });
    expect(p.sent_at).not.toBeNull();
    await expectProgressRight(env.ctx.db);

    // Sent again: the first send stays.
    const resent = await env.app.inject({
      method: 'POST',
      url: `/api/admin/links/${id}/send`,
      headers: admin,
      payload: { channel: 'sms' },
    });
    expect(resent.statusCode, resent.body).toBeLessThan(500);
    expect((await progressOf(id)).sent_at).toEqual(p.sent_at);

    // Cancelled: the copied state follows the link.
    const cancelled = await env.app.inject({ method: 'POST', url: `/api/admin/links/${id}/cancel`, headers: admin });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
    expect((await progressOf(id)).status).toBe('cancelled');
    await expectProgressRight(env.ctx.db);
  });

  it('follows the patient through sign-in, the steps, a payment approved and voided', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { source: 2 });
    expect(await progressOf(link.linkId)).toMatchObject({
      reached: StepRoutes.payment,
      has_payor: true,
      paid_at: null,
    });
    expect((await progressOf(link.linkId)).signed_in_at).not.toBeNull();
    await expectProgressRight(env.ctx.db);

    const token = await requestSessionToken(env, link);
    expect(token.statusCode).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: token.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
    const paid = await progressOf(link.linkId);
    expect(paid).toMatchObject({ reached: 'done', status: 'completed' });
    expect(paid.paid_at).not.toBeNull();
    await expectProgressRight(env.ctx.db);

    const voided = await env.app.inject({
      method: 'POST',
      url: `/api/admin/links/${link.linkId}/refund`,
      headers: admin,
      payload: { reason: 'Surgery cancelled for medical reasons' },
    });
    expect(voided.statusCode, voided.body).toBe(201);
    await expectProgressRight(env.ctx.db);
  });

  it('follows steps replaced, moved back and removed, and a payment un-approved and removed', async () => {
    const link = await createLinkAtPaymentStep(env.ctx);
    const db = env.ctx.db;
    await db.query(`update link_step set status_id = 1, completed_at = null where link_id = $1 and position = 2`, [
      link.linkId,
    ]);
    expect(await progressOf(link.linkId)).toMatchObject({ reached: StepRoutes.invoice, reached_pos: 2 });
    await db.query(`update link_step set status_id = 4, completed_at = now() where link_id = $1`, [link.linkId]);
    expect(await progressOf(link.linkId)).toMatchObject({ reached: 'done' });
    await db.query(
      `update payment set status = 'approved', transaction_id = 'T-progress', paid_at = now() where link_id = $1`,
      [link.linkId],
    );
    expect((await progressOf(link.linkId)).paid_at).not.toBeNull();
    await db.query(`update payment set status = 'chosen', transaction_id = null, paid_at = null where link_id = $1`, [
      link.linkId,
    ]);
    expect((await progressOf(link.linkId)).paid_at).toBeNull();
    await db.query(`delete from payment_attempt where link_id = $1`, [link.linkId]);
    await db.query(`delete from payment where link_id = $1`, [link.linkId]);
    await db.query(`update submission set link_step_id = null where link_id = $1`, [link.linkId]);
    await db.query(`delete from link_step where link_id = $1 and position > 3`, [link.linkId]);
    expect(await progressOf(link.linkId)).toMatchObject({ steps_total: 3, reached: 'done' });
    await db.query(`delete from link_step where link_id = $1`, [link.linkId]);
    expect(await progressOf(link.linkId)).toMatchObject({ steps_total: 0, reached: 'not_started', has_payor: false });
    await expectProgressRight(db);
  });

  it("keeps up with a bulk seed in SQL (the bench's, set-based: one trigger run per statement)", async () => {
    const db = env.ctx.db;
    const n = 3000;
    await db.query(`
      insert into link (id, first_name, last_name, phone, email, sign_in_method, language, expires_at, created_at)
      select 'bulk' || lpad(i::text, 20, '0'), 'Pat' || i, 'Lopez' || (i % 97), '512555' || lpad(i::text, 4, '0'),
        'p' || i || '@example.com', 'sms', 'en', now() + interval '7 days', now() - (i % 30) * interval '1 day'
      from generate_series(1, ${n}) i`);
    await db.query(`
      insert into link_step (link_id, position, route_path, status_id, completed_at)
      select l.id, s.pos, s.route, case when s.pos <= (abs(hashtext(l.id)) % 7) then 4 else 1 end,
        case when s.pos <= (abs(hashtext(l.id)) % 7) then l.created_at + s.pos * interval '1 hour' end
      from link l cross join (values (1, '/patientinfo'), (2, '/patientinvoicedetail'), (3, '/patientiddocs'),
        (4, '/patientcontract'), (5, '/paymentauthorization'), (6, '/confirmation')) s(pos, route)
      where l.id like 'bulk%'`);
    await db.query(`
      insert into audit_event (at, actor_type, action, link_id)
      select l.created_at + interval '1 minute', 'staff', 'link.sent', l.id from link l
        where l.id like 'bulk%' and abs(hashtext(l.id)) % 2 = 0
      union all select l.created_at + interval '2 hours', 'link', 'patient.phone_lookup', l.id from link l
        where l.id like 'bulk%' and abs(hashtext(l.id)) % 3 = 0`);
    await db.query(`
      insert into patient_session (link_id, method, created_at, expires_at)
      select id, 'sms', created_at + interval '90 minutes', created_at + interval '1 day' from link
      where id like 'bulk%' and abs(hashtext(id)) % 3 = 0`);
    await db.query(`
      insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id, paid_at)
      select id, 1, 1, 50000, 'approved', 'bulk-' || id, created_at + interval '6 hours' from link
      where id like 'bulk%' and abs(hashtext(id)) % 10 = 0`);
    await db.query(`update link set status = 'completed' where id like 'bulk%' and abs(hashtext(id)) % 10 = 0`);
    const counts = await db.query<{ n: number; done: number; paid: number }>(
      `select count(*)::int as n, count(*) filter (where reached = 'done')::int as done,
         count(paid_at)::int as paid from link_progress where link_id like 'bulk%'`,
    );
    expect(counts.rows[0]!.n).toBe(n);
    expect(counts.rows[0]!.done).toBeGreaterThan(0);
    expect(counts.rows[0]!.paid).toBeGreaterThan(0);
    await expectProgressRight(db);

    // The board's step filter and search read the same links as before (the whole answer is the console's tests').
    const board = await env.app.inject({
      method: 'GET',
      url: '/api/admin/board?status=active&step=contract&limit=5',
      headers: admin,
    });
    const expected = await db.query<{ n: number }>(
      `select count(*)::int as n from link_progress where reached = '${StepRoutes.contract}' and status = 'active'
         and expires_at > now()`,
    );
    expect(board.json()).toMatchObject({ total: expected.rows[0]!.n });
    const search = await env.app.inject({
      method: 'GET',
      url: '/api/admin/board?q=lopez96%20pat&limit=5',
      headers: admin,
    });
    expect((search.json() as { total: number }).total).toBe(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from link where (last_name || ' ' || first_name) ilike '%lopez96 pat%'`,
        )
      ).rows[0]!.n,
    );
  });
});
