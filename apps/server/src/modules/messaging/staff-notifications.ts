import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { enqueueMessage } from '../../messages/index.js';
import { practiceFor } from './link-messages.js';
import { staffNotificationEmail } from './message-texts.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

/** A join with CASE and NOT EXISTS stays plain SQL; its columns are typed from the tables they come from. */
type PaidRow = Pick<Row<'payment'>, 'link_id' | 'amount_cents' | 'card_last4'> &
  Pick<Row<'link'>, 'first_name' | 'last_name'> & {
    paid_at: Date;
    creator_email: string | null;
    creator_wants: boolean | null;
  };

/** The once-only ledger: true when this process got (kind, ref), false when another already had it. */
async function claimNotification(tx: Queryable, kind: 'paid' | 'attention', ref: string): Promise<boolean> {
  const r = await typed(tx)
    .insertInto('staff_notification_sent')
    .values({ kind, ref })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirstOrThrow();
  return r.numInsertedOrUpdatedRows! > 0n;
}

/**
 * Staff e-mails: "link paid" to the coordinator who created the link (unless they turned it off) and to
 * PRACTICE_NOTIFY_EMAIL. A ledger row (kind, link) inserted in the same transaction as the e-mails makes each
 * notification go out once, whatever the number of processes. Only payments of the last day count, so a new
 * installation does not mail its history.
 */
export async function notifyStaff(ctx: Ctx): Promise<{ sent: number }> {
  const due = await ctx.db.query<PaidRow>(
    `select p.link_id, l.first_name, l.last_name, p.amount_cents, p.card_last4, p.paid_at,
       case when s.disabled_at is null then s.email end as creator_email, pref.on_paid as creator_wants
     from payment p
     join link l on l.id = p.link_id
     left join staff_user s on s.id = l.created_by
     left join staff_notification_pref pref on pref.staff_user_id = s.id
     where p.status = 'approved' and p.paid_at > now() - interval '1 day'
       and not exists (select 1 from staff_notification_sent n where n.kind = 'paid' and n.ref = p.link_id)
     order by p.paid_at limit 20`,
  );
  let sent = 0;
  for (const row of due.rows) {
    const recipients = new Set<string>();
    if (row.creator_email && row.creator_wants !== false) recipients.add(row.creator_email);
    if (ctx.config.PRACTICE_NOTIFY_EMAIL) recipients.add(ctx.config.PRACTICE_NOTIFY_EMAIL.toLowerCase());
    await ctx.db.transaction(async (tx) => {
      if (!(await claimNotification(tx, 'paid', row.link_id)) || recipients.size === 0) return;
      const practice = await practiceFor(tx, ctx.config);
      const mail = staffNotificationEmail({
        kind: 'paid',
        practice,
        patientName: `${row.first_name} ${row.last_name}`,
        detail: `Amount: $${(row.amount_cents / 100).toFixed(2)}${row.card_last4 ? ` · card ending ${row.card_last4}` : ''} · paid ${new Date(row.paid_at).toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
        consoleUrl: `${ctx.config.publicUrl}/console/links/${encodeURIComponent(row.link_id)}`,
      });
      for (const to of recipients) {
        await enqueueMessage(tx, { channel: 'email', to, ...mail, linkId: row.link_id, kind: 'staff-paid' });
      }
      await writeAudit(tx, {
        actorType: 'system',
        action: 'staff.notified',
        linkId: row.link_id,
        details: { kind: 'paid', recipients: recipients.size },
      });
      sent++;
    });
  }
  return { sent: sent + (await notifyAttention(ctx)) };
}

/** Audit actions that mean a payment needs someone from the practice (issue 10's flags, issue 15's mapping). */
const ATTENTION_ACTIONS = [
  'payment.needs_attention',
  'payment.reconciliation_flagged',
  'payment.second_payment_refused',
  'payment.second_approval_flagged',
];

/**
 * "Needs attention" e-mails: read from the append-only audit trail (the owners of the money flow already write these
 * rows), so this module needs no hook into theirs. Once per audit row.
 */
async function notifyAttention(ctx: Ctx): Promise<number> {
  const due = await ctx.db.query<
    Pick<Row<'audit_event'>, 'action'> &
      Pick<Row<'link'>, 'first_name' | 'last_name'> & {
        event_id: number;
        link_id: string;
        creator_email: string | null;
        creator_wants: boolean | null;
      }
  >(
    `select a.id::int as event_id, a.action, a.link_id, l.first_name, l.last_name,
       case when s.disabled_at is null then s.email end as creator_email, pref.on_attention as creator_wants
     from audit_event a
     join link l on l.id = a.link_id
     left join staff_user s on s.id = l.created_by
     left join staff_notification_pref pref on pref.staff_user_id = s.id
     where a.action = any($1::text[]) and a.at > now() - interval '1 day'
       and not exists (select 1 from staff_notification_sent n where n.kind = 'attention' and n.ref = a.id::text)
     order by a.id limit 20`,
    [ATTENTION_ACTIONS],
  );
  let sent = 0;
  for (const row of due.rows) {
    const recipients = new Set<string>();
    if (row.creator_email && row.creator_wants !== false) recipients.add(row.creator_email);
    if (ctx.config.PRACTICE_NOTIFY_EMAIL) recipients.add(ctx.config.PRACTICE_NOTIFY_EMAIL.toLowerCase());
    await ctx.db.transaction(async (tx) => {
      if (!(await claimNotification(tx, 'attention', String(row.event_id))) || recipients.size === 0) return;
      const practice = await practiceFor(tx, ctx.config);
      const mail = staffNotificationEmail({
        kind: 'attention',
        practice,
        patientName: `${row.first_name} ${row.last_name}`,
        detail: ATTENTION_TEXT[row.action] ?? 'Open the link in the console to see what happened.',
        consoleUrl: `${ctx.config.publicUrl}/console/links/${encodeURIComponent(row.link_id)}`,
      });
      for (const to of recipients) {
        await enqueueMessage(tx, { channel: 'email', to, ...mail, linkId: row.link_id, kind: 'staff-attention' });
      }
      await writeAudit(tx, {
        actorType: 'system',
        action: 'staff.notified',
        linkId: row.link_id,
        details: { kind: 'attention', reason: row.action, recipients: recipients.size },
      });
      sent++;
    });
  }
  return sent;
}

const ATTENTION_TEXT: Record<string, string> = {
  'payment.second_payment_refused':
    'The card was approved a second time for a link that was already paid: the second charge must be voided or refunded.',
  'payment.second_approval_flagged':
    'The card was approved a second time for a link that was already paid: the second charge must be voided or refunded.',
  'payment.reconciliation_flagged':
    'The gateway and Paylink disagree about this payment: check it against the gateway before telling the patient anything.',
  'payment.needs_attention': 'This payment was flagged for review: open it in the console to see why.',
};
