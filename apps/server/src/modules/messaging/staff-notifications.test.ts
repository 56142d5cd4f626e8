import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { coordinator } from '../../../test/support/messaging.js';
import { notifyStaff } from './staff-notifications.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp({
    PRACTICE_NOTIFY_EMAIL: 'Billing@Practice.example',
    PRACTICE_TIME_ZONE: 'America/Chicago',
  }));
});
afterAll(async () => close());

async function paidLink(createdBy: string, o: { cents?: number; brand?: string | null; paidAt?: Date } = {}) {
  const id = await insertTestLink(ctx.db, { phone: '(555) 601-0001' });
  await ctx.db.query('update link set created_by = $2 where id = $1', [id, createdBy]);
  await ctx.db.query(
    `insert into payment (link_id, payment_type_id, payment_source_id, amount_cents, status, transaction_id, paid_at,
       card_brand, card_last4) values ($1, 1, 1, $3, 'approved', $2, $4, $5, '4242')`,
    [id, `txn-${id}`, o.cents ?? 50_000, (o.paidAt ?? new Date()).toISOString(), o.brand ?? null],
  );
  return id;
}
const mails = async (id: string) =>
  (
    await ctx.db.query<{ to_address: string; subject: string; body_text: string }>(
      `select to_address, subject, body_text from outbox_message where link_id = $1 and kind = 'staff-paid' order by to_address`,
      [id],
    )
  ).rows;

describe('staff notifications', () => {
  it('the creating coordinator and the billing address hear once that a link was paid, with the console link', async () => {
    const maria = await coordinator(ctx);
    const id = await paidLink(maria.id);
    expect((await notifyStaff(ctx)).sent).toBe(1);
    expect((await notifyStaff(ctx)).sent).toBe(0);
    const m = await mails(id);
    expect(m.map((x) => x.to_address)).toEqual(['billing@practice.example', 'maria@practice.example']);
    expect(m[0]!.subject).toBe("Paid: Ana Rivera's payment link");
    expect(m[0]!.body_text).toContain(`${ctx.config.publicUrl}/console/links/${id}`);
    expect(m[0]!.body_text).toContain('Amount: $500.00 · card ending in 4242');
  });

  it('writes money as $1,416.66, the brand as people write it and the time in the practice’s zone (issue 41)', async () => {
    const maria = await coordinator(ctx, 'maria.z@practice.example', 'Maria Z');
    const paidAt = new Date(Date.now() - 60_000);
    const id = await paidLink(maria.id, { cents: 141_666, brand: 'visa', paidAt });
    await notifyStaff(ctx);
    const [m] = await mails(id);
    const chicago = new Intl.DateTimeFormat('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'America/Chicago',
      timeZoneName: 'short',
    }).format(paidAt);
    expect(m!.body_text).toContain('Amount: $1,416.66 · Visa ending in 4242 · paid ');
    expect(m!.body_text).toContain(chicago); // e.g. "9:15 AM CST"
    expect(m!.body_text).toMatch(/C[SD]T\./);
    expect(m!.body_text).not.toContain('UTC');
  });

  it('a coordinator who turned it off gets none', async () => {
    const lee = await coordinator(ctx, 'lee@practice.example', 'Lee Park');
    const put = await app.inject({
      method: 'PUT',
      url: '/api/admin/me/notifications',
      headers: lee.headers,
      payload: { onPaid: false, onAttention: true },
    });
    expect(put.json()).toEqual({ onPaid: false, onAttention: true });
    const get = await app.inject({ method: 'GET', url: '/api/admin/me/notifications', headers: lee.headers });
    expect(get.json()).toEqual({ onPaid: false, onAttention: true });
    const id = await paidLink(lee.id);
    await notifyStaff(ctx);
    expect((await mails(id)).map((x) => x.to_address)).toEqual(['billing@practice.example']);
  });

  it('a payment flagged for attention e-mails the creator and the billing address once', async () => {
    const ana = await coordinator(ctx, 'ana.c@practice.example', 'Ana C');
    const id = await insertTestLink(ctx.db, { phone: '(555) 601-0009' });
    await ctx.db.query('update link set created_by = $2 where id = $1', [id, ana.id]);
    await ctx.db.query(
      `insert into audit_event (actor_type, action, link_id, details) values ('system', 'payment.reconciliation_flagged', $1, '{}')`,
      [id],
    );
    await notifyStaff(ctx);
    await notifyStaff(ctx);
    const m = (
      await ctx.db.query<{ to_address: string; subject: string; body_text: string }>(
        `select to_address, subject, body_text from outbox_message where link_id = $1 and kind = 'staff-attention' order by to_address`,
        [id],
      )
    ).rows;
    expect(m.map((x) => x.to_address)).toEqual(['ana.c@practice.example', 'billing@practice.example']);
    expect(m[0]!.subject).toBe("Needs attention: Ana Rivera's payment");
    expect(m[0]!.body_text).toContain('The gateway and Paylink disagree about this payment');
    expect(m[0]!.body_text).toContain(`/console/links/${id}`);
  });
});
