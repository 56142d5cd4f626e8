import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { deliverDueMessages } from '../outbox/outbox-worker.js';
import { SANDBOX_SMS_NUMBERS } from '../../providers/sms/sandbox-sms.js';
import { coordinator } from '../../../test/support/messaging.js';
import { staffToken } from '../../seed/seed-staff.js';

let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;
let staff: Awaited<ReturnType<typeof coordinator>>;

beforeAll(async () => {
  ({ app, ctx, close } = await createTestApp({ PRACTICE_PHONE: '(555) 010-0123' }));
  staff = await coordinator(ctx);
});
afterAll(async () => close());

const send = (id: string, channel: 'sms' | 'email', headers = staff.headers) =>
  app.inject({ method: 'POST', url: `/api/admin/links/${id}/send`, headers, payload: { channel } });
const messages = async (id: string) =>
  (await app.inject({ method: 'GET', url: `/api/admin/links/${id}/messages`, headers: staff.headers })).json() as {
    messages: {
      kind: string;
      channel: string;
      status: string;
      deliveryStatus: string | null;
      deliveryError: string | null;
    }[];
    reminders: { enabled: boolean; nextCheckAt: string | null; sent: number };
  };
const outboxRow = async (id: string) =>
  (
    await ctx.db.query<{
      body_text: string;
      body_html: string | null;
      subject: string | null;
      headers: unknown;
      to_address: string;
    }>('select body_text, body_html, subject, headers, to_address from outbox_message where id = $1', [id])
  ).rows[0]!;

describe('sending a link', () => {
  it('by SMS: names practice and coordinator, carries the personal link and STOP, nothing medical; audited; delivered', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 201-0001' });
    await ctx.db.query(`update link set procedure_description = 'Rhinoplasty' where id = $1`, [id]);
    const res = await send(id, 'sms');
    expect(res.statusCode).toBe(201);
    const sent = res.json() as { id: string; channel: string; to: string };
    expect(sent).toMatchObject({ channel: 'sms', to: '(555) 201-0001' });
    const m = await outboxRow(sent.id);
    expect(m.body_text).toBe(
      `Bella Vista Plastic Surgery: Hello Ana, this is Maria Lopez. Here is your personal link to review and complete your payment: ${ctx.config.publicUrl}/auth?id=${id} Reply STOP to opt out.`,
    );
    expect(m.body_text).not.toMatch(/rhinoplasty|\$/i);
    const audit = await ctx.db.query<{ action: string; actor_id: string; details: { channel: string; to: string } }>(
      `select action, actor_id, details from audit_event where link_id = $1 and action = 'link.sent'`,
      [id],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor_id: staff.id, details: { channel: 'sms', to: '(***) ***-0001' } });
    expect((await messages(id)).messages).toEqual([
      expect.objectContaining({ kind: 'link-send', status: 'pending', deliveryStatus: null }),
    ]);
    await deliverDueMessages(ctx);
    expect((await messages(id)).messages[0]).toMatchObject({ status: 'sent', deliveryStatus: 'delivered' });
  });

  it('in Spanish for a Spanish link, within one GSM-7 message body (no accents)', async () => {
    const id = await insertTestLink(ctx.db, { phone: '(555) 201-0002', language: 'es', firstName: 'Lucia' });
    const sent = (await send(id, 'sms')).json() as { id: string };
    const text = (await outboxRow(sent.id)).body_text;
    expect(text).toBe(
      `Bella Vista Plastic Surgery: Hola Lucia, le escribe Maria Lopez. Este es su enlace personal para revisar y completar su pago: ${ctx.config.publicUrl}/auth?id=${id}&lng=es Responda STOP para no recibir estos mensajes.`,
    );
    expect(text).toMatch(/^[\x20-\x7e]+$/);
  });

  it('by e-mail: branded HTML + plain text, genuine-check footer with the practice phone, one-click unsubscribe headers', async () => {
    const id = await insertTestLink(ctx.db, { method: 'email', email: 'ana@example.com' });
    const sent = (await send(id, 'email')).json() as { id: string };
    const m = await outboxRow(sent.id);
    expect(m.subject).toBe('Your payment link from Bella Vista Plastic Surgery');
    expect(m.body_text).toContain(
      'Maria Lopez at Bella Vista Plastic Surgery has prepared your personal payment link.',
    );
    expect(m.body_text).toContain(`Open my payment link: ${ctx.config.publicUrl}/auth?id=${id}`);
    expect(m.body_text).toContain('Not sure it is genuine? Call Bella Vista Plastic Surgery at (555) 010-0123');
    expect(m.body_html).toContain('<html lang="en">');
    expect(m.body_html).toContain('(555) 010-0123');
    const headers = m.headers as Record<string, string>;
    expect(headers['List-Unsubscribe']).toMatch(new RegExp(`^<${ctx.config.publicUrl}/unsubscribe\\?t=[\\w.-]+>$`));
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    await deliverDueMessages(ctx);
    expect((await messages(id)).messages[0]).toMatchObject({ deliveryStatus: 'accepted' });
  });

  it('on create with send, and refuses what cannot be sent (nothing is created or queued)', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: staff.headers,
      payload: { firstName: 'Eva', lastName: 'Lopez', phone: '(555) 201-0003', send: 'sms' },
    });
    expect(created.statusCode).toBe(201);
    const c = created.json() as { id: string; message: { channel: string; to: string } };
    expect(c.message).toMatchObject({ channel: 'sms', to: '+15552010003' });
    expect((await messages(c.id)).messages.map((x) => x.kind)).toEqual(['link-send']);

    const before = (await ctx.db.query('select id from link')).rowCount;
    const noEmail = await app.inject({
      method: 'POST',
      url: '/api/admin/links',
      headers: staff.headers,
      payload: { firstName: 'Eva', lastName: 'Lopez', phone: '(555) 201-0003', send: 'email' },
    });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toMatchObject({ message: 'This link has no e-mail address.' });
    expect((await ctx.db.query('select id from link')).rowCount).toBe(before);

    const cancelled = await insertTestLink(ctx.db, { phone: '(555) 201-0004' });
    await ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [cancelled]);
    expect((await send(cancelled, 'sms')).json()).toMatchObject({ error: 'link_not_active' });
    expect((await send('x'.repeat(22), 'sms')).statusCode).toBe(404);
    expect((await send(cancelled, 'fax' as 'sms')).statusCode).toBe(400);
    expect((await send(cancelled, 'sms', {} as typeof staff.headers)).statusCode).toBe(401);
    const billing = {
      authorization: `Bearer ${await staffToken(ctx.db, { email: 'bill@practice.example', role: 'billing' })}`,
    };
    const active = await insertTestLink(ctx.db, { phone: '(555) 201-0005' });
    expect((await send(active, 'sms', billing)).statusCode).toBe(403);
    const list = await app.inject({ method: 'GET', url: `/api/admin/links/${active}/messages`, headers: billing });
    expect(list.json()).toMatchObject({ messages: [] });
  });

  it('sandbox test numbers produce failed, undelivered and refused statuses', async () => {
    const ids: Record<string, string> = {};
    for (const [name, phone] of Object.entries(SANDBOX_SMS_NUMBERS)) {
      ids[name] = await insertTestLink(ctx.db, { phone });
      expect((await send(ids[name], 'sms')).statusCode).toBe(201);
    }
    await deliverDueMessages(ctx);
    expect((await messages(ids.failed!)).messages[0]).toMatchObject({
      status: 'sent',
      deliveryStatus: 'failed',
      deliveryError: '30006',
    });
    expect((await messages(ids.undelivered!)).messages[0]).toMatchObject({
      deliveryStatus: 'undelivered',
      deliveryError: '30003',
    });
    expect((await messages(ids.refused!)).messages[0]).toMatchObject({ status: 'failed', deliveryStatus: 'failed' });
    const page = await app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.body).toContain('data-delivery="undelivered"');
    expect(page.body).toContain('data-delivery="delivered"');
  });
});
