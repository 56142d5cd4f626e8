import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { writeAudit, type AuditEvent } from '../../lib/audit.js';
import { toE164 } from '../../providers/sms/types.js';

export type Channel = 'sms' | 'email';
type Actor = Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;

/** Addresses as opt-outs store them: phones in E.164, e-mail in lower case. */
export function normalizeAddress(channel: Channel, address: string): string {
  const a = address.trim();
  return channel === 'sms' ? (toE164(a) ?? a) : a.toLowerCase();
}

export async function isOptedOut(q: Queryable, channel: Channel, address: string): Promise<boolean> {
  const r = await q.query('select 1 from message_opt_out where practice_id = 1 and channel = $1 and address = $2', [
    channel,
    normalizeAddress(channel, address),
  ]);
  return r.rowCount > 0;
}

/**
 * Records an opt-out (idempotent), audits it, and stops the scheduled reminders of every link sent to that address at
 * once (the reminder pass also re-checks consent before each send).
 */
export async function optOut(
  tx: Queryable,
  o: { channel: Channel; address: string; source: string; keyword?: string; actor: Actor },
): Promise<void> {
  const address = normalizeAddress(o.channel, o.address);
  const r = await tx.query(
    `insert into message_opt_out (channel, address, source, keyword) values ($1, $2, $3, $4)
     on conflict (practice_id, channel, address) do nothing`,
    [o.channel, address, o.source, o.keyword ?? null],
  );
  const links = await linksTo(tx, o.channel, address);
  if (links.length) {
    await tx.query(
      `update link_reminder set next_check_at = null, updated_at = now() where link_id = any($1::text[]) and channel = $2`,
      [links, o.channel],
    );
  }
  if (r.rowCount > 0) {
    await writeAudit(tx, {
      ...o.actor,
      action: 'messaging.opted_out',
      details: { channel: o.channel, address: mask(o.channel, address), source: o.source, keyword: o.keyword, links },
    });
  }
}

/** Opting back in (START/UNSTOP/YES): removes the opt-out and wakes the reminders of links sent there. */
export async function optIn(
  tx: Queryable,
  o: { channel: Channel; address: string; source: string; keyword?: string; actor: Actor },
): Promise<void> {
  const address = normalizeAddress(o.channel, o.address);
  const r = await tx.query(
    'delete from message_opt_out where practice_id = 1 and channel = $1 and address = $2 returning 1',
    [o.channel, address],
  );
  if (r.rowCount === 0) return;
  const links = await linksTo(tx, o.channel, address);
  if (links.length) {
    await tx.query(
      `update link_reminder set next_check_at = now(), updated_at = now() where link_id = any($1::text[]) and channel = $2`,
      [links, o.channel],
    );
  }
  await writeAudit(tx, {
    ...o.actor,
    action: 'messaging.opted_in',
    details: { channel: o.channel, address: mask(o.channel, address), source: o.source, keyword: o.keyword, links },
  });
}

async function linksTo(q: Queryable, channel: Channel, address: string): Promise<string[]> {
  const r =
    channel === 'sms'
      ? await q.query<{ id: string }>(
          `select id from link where phone <> '' and right(regexp_replace(phone, '\\D', '', 'g'), 10) = $1`,
          [address.replace(/\D/g, '').slice(-10)],
        )
      : await q.query<{ id: string }>('select id from link where lower(email) = $1 or lower(payor_email) = $1', [
          address,
        ]);
  return r.rows.map((x) => x.id);
}

/** Audit rows and logs keep a masked address; the staff list shows it in full (staff see the links anyway). */
export function mask(channel: Channel, address: string): string {
  if (channel === 'sms') {
    let keep = (address.match(/\d/g) ?? []).length - 4;
    return address.replace(/\d/g, (d) => (keep-- > 0 ? '*' : d));
  }
  const [user, domain] = address.split('@');
  return `${(user ?? '').slice(0, 1)}***@${domain ?? ''}`;
}

export interface OptOutEntry {
  channel: Channel;
  address: string;
  source: string;
  keyword: string | null;
  optedOutAt: string;
}

export async function listOptOuts(q: Queryable): Promise<OptOutEntry[]> {
  const r = await q.query<{
    channel: Channel;
    address: string;
    source: string;
    keyword: string | null;
    opted_out_at: Date;
  }>(
    'select channel, address, source, keyword, opted_out_at from message_opt_out where practice_id = 1 order by opted_out_at desc limit 1000',
  );
  return r.rows.map((x) => ({
    channel: x.channel,
    address: x.address,
    source: x.source,
    keyword: x.keyword,
    optedOutAt: new Date(x.opted_out_at).toISOString(),
  }));
}

/** Unsubscribe tokens: the address, signed (HMAC-SHA256 with a per-installation secret). No database row needed. */
export function unsubscribeToken(secret: string, email: string): string {
  const a = Buffer.from(email.toLowerCase()).toString('base64url');
  return `${a}.${createHmac('sha256', secret).update(`unsubscribe:${a}`).digest('base64url').slice(0, 32)}`;
}

export function readUnsubscribeToken(secret: string, token: string): string | null {
  const m = /^([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(
    createHmac('sha256', secret).update(`unsubscribe:${m[1]}`).digest('base64url').slice(0, 32),
  );
  const given = Buffer.from(m[2]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const email = Buffer.from(m[1]!, 'base64url').toString('utf8');
  return email.includes('@') ? email : null;
}
