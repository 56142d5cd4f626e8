import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Queryable } from '../db/client.js';
import { typed } from '../db/typed.js';
import { writeAudit, type AuditEvent } from '../lib/audit.js';
import { toE164 } from '../providers/sms/types.js';

export type Channel = 'sms' | 'email';
type Actor = Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;

/** Addresses as opt-outs store them: phones in E.164, e-mail in lower case. */
function normalizeAddress(channel: Channel, address: string): string {
  const a = address.trim();
  return channel === 'sms' ? (toE164(a) ?? a) : a.toLowerCase();
}

export async function isOptedOut(q: Queryable, channel: Channel, address: string): Promise<boolean> {
  const r = await typed(q)
    .selectFrom('message_opt_out')
    .select('address')
    .where('practice_id', '=', 1)
    .where('channel', '=', channel)
    .where('address', '=', normalizeAddress(channel, address))
    .executeTakeFirst();
  return r !== undefined;
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
  const r = await typed(tx)
    .insertInto('message_opt_out')
    .values({ channel: o.channel, address, source: o.source, keyword: o.keyword ?? null })
    .onConflict((oc) => oc.columns(['practice_id', 'channel', 'address']).doNothing())
    .executeTakeFirstOrThrow();
  const links = await linksTo(tx, o.channel, address);
  if (links.length) {
    await typed(tx)
      .updateTable('link_reminder')
      .set({ next_check_at: null, updated_at: sql`now()` })
      .where('link_id', '=', sql<string>`any(${links}::text[])`)
      .where('channel', '=', o.channel)
      .execute();
  }
  if (r.numInsertedOrUpdatedRows! > 0n) {
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
  const r = await typed(tx)
    .deleteFrom('message_opt_out')
    .where('practice_id', '=', 1)
    .where('channel', '=', o.channel)
    .where('address', '=', address)
    .executeTakeFirstOrThrow();
  if (r.numDeletedRows === 0n) return;
  const links = await linksTo(tx, o.channel, address);
  if (links.length) {
    await typed(tx)
      .updateTable('link_reminder')
      .set({ next_check_at: sql`now()`, updated_at: sql`now()` })
      .where('link_id', '=', sql<string>`any(${links}::text[])`)
      .where('channel', '=', o.channel)
      .execute();
  }
  await writeAudit(tx, {
    ...o.actor,
    action: 'messaging.opted_in',
    details: { channel: o.channel, address: mask(o.channel, address), source: o.source, keyword: o.keyword, links },
  });
}

async function linksTo(q: Queryable, channel: Channel, address: string): Promise<string[]> {
  const links = typed(q).selectFrom('link').select('id');
  const rows =
    channel === 'sms'
      ? await links
          .where('phone', '<>', '')
          .where(
            sql<string>`right(regexp_replace(phone, '\\D', '', 'g'), 10)`,
            '=',
            address.replace(/\D/g, '').slice(-10),
          )
          .execute()
      : await links
          .where((eb) =>
            eb.or([eb(sql<string>`lower(email)`, '=', address), eb(sql<string>`lower(payor_email)`, '=', address)]),
          )
          .execute();
  return rows.map((x) => x.id);
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
  const rows = await typed(q)
    .selectFrom('message_opt_out')
    .select(['channel', 'address', 'source', 'keyword', 'opted_out_at'])
    .where('practice_id', '=', 1)
    .orderBy('opted_out_at', 'desc')
    .limit(1000)
    .execute();
  return rows.map((x) => ({
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
