import { cardBrandName, formatUsd } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import { typed } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { enqueueMessage } from '../../messages/index.js';
import { practiceTimeZone } from '../app-config/index.js';
import { practiceFor } from './link-messages.js';
import { staffNotificationEmail } from './message-texts.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

/** The link creator's e-mail while their account is active (`case when … end`: null once disabled). */
const activeCreatorEmail = (eb: ExpressionBuilder<{ s: DB['staff_user'] }, 's'>) =>
  eb.case().when('s.disabled_at', 'is', null).then(eb.ref('s.email')).end().as('creator_email');

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
  const due = await typed(ctx.db)
    .selectFrom('payment as p')
    .innerJoin('link as l', 'l.id', 'p.link_id')
    .leftJoin('staff_user as s', 's.id', 'l.created_by')
    .leftJoin('staff_notification_pref as pref', 'pref.staff_user_id', 's.id')
    .select([
      'p.link_id',
      'l.first_name',
      'l.last_name',
      'p.amount_cents',
      'p.card_brand',
      'p.card_last4',
      'pref.on_paid as creator_wants',
    ])
    .select('p.paid_at')
    .select(activeCreatorEmail)
    .where('p.status', '=', 'approved')
    .where('p.paid_at', '>', sql<Date>`now() - interval '1 day'`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('staff_notification_sent as n')
            .select('n.ref')
            .where('n.kind', '=', 'paid')
            .whereRef('n.ref', '=', 'p.link_id'),
        ),
      ),
    )
    .orderBy('p.paid_at')
    .limit(20)
    // Approved payments carry paid_at (a check constraint of migration 0001 says so).
    .$narrowType<{ paid_at: Date }>()
    .execute();
  let sent = 0;
  const timeZone = due.length ? await practiceTimeZone(ctx.db, ctx.config) : 'UTC';
  for (const row of due) {
    const recipients = new Set<string>();
    if (row.creator_email && row.creator_wants !== false) recipients.add(row.creator_email);
    if (ctx.config.PRACTICE_NOTIFY_EMAIL) recipients.add(ctx.config.PRACTICE_NOTIFY_EMAIL.toLowerCase());
    const card = row.card_last4 ? ` · ${cardBrandName(row.card_brand) || 'card'} ending in ${row.card_last4}` : '';
    await ctx.db.transaction(async (tx) => {
      if (!(await claimNotification(tx, 'paid', row.link_id)) || recipients.size === 0) return;
      const practice = await practiceFor(tx, ctx.config);
      const mail = staffNotificationEmail({
        kind: 'paid',
        practice,
        patientName: `${row.first_name} ${row.last_name}`,
        detail: `Amount: ${formatUsd(row.amount_cents)}${card} · paid ${staffTime(row.paid_at, timeZone)}.`,
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
  // A plan's instalment declined (a retry is scheduled) or failed for good (issue 28, decision 0211).
  'installment.declined',
  'installment.failed',
];

/**
 * "Needs attention" e-mails: read from the append-only audit trail (the owners of the money flow already write these
 * rows), so this module needs no hook into theirs. Once per audit row.
 */
async function notifyAttention(ctx: Ctx): Promise<number> {
  const due = await typed(ctx.db)
    .selectFrom('audit_event as a')
    .innerJoin('link as l', 'l.id', 'a.link_id')
    .leftJoin('staff_user as s', 's.id', 'l.created_by')
    .leftJoin('staff_notification_pref as pref', 'pref.staff_user_id', 's.id')
    .select([
      sql<number>`a.id::int`.as('event_id'),
      'a.action',
      'a.details',
      'l.id as link_id',
      'l.first_name',
      'l.last_name',
    ])
    .select(['pref.on_attention as creator_wants'])
    .select(activeCreatorEmail)
    .where('a.action', 'in', ATTENTION_ACTIONS)
    .where('a.at', '>', sql<Date>`now() - interval '1 day'`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('staff_notification_sent as n')
            .select('n.ref')
            .where('n.kind', '=', 'attention')
            .where('n.ref', '=', sql<string>`a.id::text`),
        ),
      ),
    )
    .orderBy('a.id')
    .limit(20)
    .execute();
  let sent = 0;
  const timeZone = due.length ? await practiceTimeZone(ctx.db, ctx.config) : 'UTC';
  for (const row of due) {
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
        detail:
          installmentText(row.action, row.details, timeZone) ??
          ATTENTION_TEXT[row.action] ??
          'Open the link in the console to see what happened.',
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

/** The staff e-mail's words for a plan's declined or failed instalment, from its audit row's details. */
function installmentText(action: string, details: unknown, timeZone: string): string | null {
  if (action !== 'installment.declined' && action !== 'installment.failed') return null;
  const d = (details ?? {}) as { n?: number; amountCents?: number; reason?: string; nextAttemptAt?: string | null };
  const amount = typeof d.amountCents === 'number' ? formatUsd(d.amountCents) : 'an amount';
  const what = `Plan installment ${d.n ?? '?'} (${amount}) was declined${d.reason ? ` (${d.reason})` : ''}.`;
  return action === 'installment.failed'
    ? `${what} That was the last retry: the installment is failed and shows in Upcoming charges. Contact the patient.`
    : `${what} The patient was sent a link to update the card; the next try is ${
        d.nextAttemptAt ? staffTime(d.nextAttemptAt, timeZone) : 'scheduled'
      }.`;
}

/** A moment as the practice's staff read it: their zone, named ("Dec 1, 2026, 9:15 AM CST"). */
function staffTime(at: Date | string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(at));
}
