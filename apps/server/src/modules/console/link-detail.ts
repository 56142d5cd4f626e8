import type { ConsoleLinkDetail } from '@paylink/shared';
import { stepKeyByRoute } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { writeAudit, type Actor, PATIENT_READ_ACTIONS, STAFF_READ_ACTIONS } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { linkState, personalLinkUrl, type LinkRow } from '../links/index.js';
import { showPlan } from '../plans/index.js';
import { toStaffPayment } from './staff-link-queries.js';
import { describeEvent, type AuditRowForTimeline } from './timeline.js';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** A decline's words from the stored (redacted) client payload, if it has any. */
function reasonOf(payload: string | null): string | null {
  if (!payload) return null;
  try {
    const v = JSON.parse(payload) as Record<string, unknown>;
    for (const k of ['ssl_result_message', 'errorMessage', 'message', 'reason', 'kind']) {
      if (typeof v[k] === 'string' && v[k]) return (v[k] as string).slice(0, 200);
    }
  } catch {
    // not JSON: show nothing rather than raw text
  }
  return null;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * Each instalment's history from the timeline's audit rows (oldest first): every `installment.*` row that names its
 * instalment. The practice's actions (another slice) write the same prefix and show here without a change.
 */
export function planHistoryOf(rows: AuditRowForTimeline[]): ConsoleLinkDetail['planHistory'] {
  return rows
    .filter((r) => r.action.startsWith('installment.') && typeof r.details?.n === 'number')
    .map((r) => {
      const d = r.details!;
      return {
        n: d.n as number,
        at: iso(r.at)!,
        action: r.action,
        amount: typeof d.amountCents === 'number' ? d.amountCents / 100 : null,
        dueOn: str(d.dueOn),
        reason: str(d.reason) ?? str(d.error),
        attempts: typeof d.attempts === 'number' ? d.attempts : null,
        nextAttemptAt: str(d.nextAttemptAt),
        transactionId: str(d.txnId),
        by: r.actor_type === 'staff' ? (r.staff_name ?? r.staff_email) : null,
      };
    })
    .reverse();
}

/** The console's link page in one read (audited as admin.link_viewed before the timeline is read, so it shows). */
export async function showConsoleLink(opts: { ctx: AppContext; actor: Actor; id: string }): Promise<ConsoleLinkDetail> {
  const { ctx } = opts;
  return ctx.db.transaction(async (tx) => {
    const lr = await tx.query<LinkRow & { coord_name: string | null; coord_email: string | null }>(
      `select l.*, u.name as coord_name, u.email as coord_email from link l
       left join staff_user u on u.id = l.created_by where l.id = $1`,
      [opts.id],
    );
    const link = lr.rows[0];
    if (!link) throw notFound('No link with this id.');
    await writeAudit(tx, { ...opts.actor, action: 'admin.link_viewed', linkId: link.id, details: { view: 'console' } });
    const [steps, payment, attempts, logs, events, plan] = await Promise.all([
      tx.query<{
        position: number;
        route_path: string;
        status_id: number;
        updated_at: Date;
        completed_at: Date | null;
      }>(
        'select position, route_path, status_id, updated_at, completed_at from link_step where link_id = $1 order by position',
        [link.id],
      ),
      tx.query<{
        status: 'chosen' | 'approved';
        amount_cents: number;
        payment_type_id: number;
        payment_source_id: number;
        payor_full_name: string | null;
        payor_email: string | null;
        card_brand: string | null;
        card_last4: string | null;
        transaction_id: string | null;
        approval_code: string | null;
        paid_at: Date | null;
        refunded_cents: number;
      }>('select * from payment where link_id = $1', [link.id]),
      tx.query<{
        id: string;
        created_at: Date;
        amount_cents: number;
        status: ConsoleLinkDetail['attempts'][0]['status'];
      }>(
        'select id, created_at, amount_cents, status from payment_attempt where link_id = $1 order by created_at desc',
        [link.id],
      ),
      tx.query<{ created_at: Date; payload: string }>(
        'select created_at, payload from payment_log where link_id = $1 order by created_at',
        [link.id],
      ),
      tx.query<AuditRowForTimeline>(
        `select a.id, a.at, a.actor_type, a.actor_id, a.action, a.details, a.ip, u.name as staff_name,
           u.email as staff_email, o.delivery_status
         from audit_event a
         left join staff_user u on a.actor_type = 'staff' and u.id::text = a.actor_id
         left join outbox_message o on o.link_id = $1 and o.id::text = a.details->>'messageId'
           and a.action in ('link.sent', 'link.resent', 'link.reminded')
         where a.link_id = $1 and not (a.action = any($2::text[]))
           and not (a.actor_type = 'staff' and a.action = any($3::text[]))
         order by a.at desc, a.id desc limit 500`,
        // Reads are audited but are not events: a page that polls would fill its own timeline (issue 29, item 1).
        [link.id, PATIENT_READ_ACTIONS, STAFF_READ_ACTIONS],
      ),
      showPlan({ q: tx, linkId: link.id }),
    ]);
    const p = payment.rows[0];
    const lastActivity = events.rows.find((e) => e.actor_type === 'link');
    return {
      id: link.id,
      url: personalLinkUrl(ctx.config.publicUrl, link.id),
      status: linkState(link),
      firstName: link.first_name,
      lastName: link.last_name,
      email: link.email,
      phone: link.phone,
      address: link.address,
      city: link.city,
      state: link.state,
      zipCode: link.zip_code,
      language: link.language as ConsoleLinkDetail['language'],
      signInMethod: link.sign_in_method as ConsoleLinkDetail['signInMethod'],
      isPaymentLinkLocked: link.is_payment_link_locked,
      payorName: link.payor_name,
      payorEmail: link.payor_email,
      procedureDescription: link.procedure_description,
      coordinator: link.created_by
        ? { id: link.created_by, name: link.coord_name ?? '', email: link.coord_email ?? '' }
        : null,
      createdAt: iso(link.created_at)!,
      expiresAt: iso(link.expires_at)!,
      cancelledAt: iso(link.cancelled_at),
      completedAt: iso(link.completed_at),
      lastActivityAt: iso(lastActivity?.at),
      steps: steps.rows.map((s) => ({
        position: s.position,
        key: stepKeyByRoute[s.route_path] ?? 'patientInfo',
        routePath: s.route_path,
        status: s.status_id === 4 ? 'completed' : s.status_id === 2 ? 'in_progress' : 'not_started',
        startedAt: s.status_id === 1 ? null : iso(s.status_id === 4 ? (s.completed_at ?? s.updated_at) : s.updated_at),
        completedAt: iso(s.completed_at),
      })),
      payment: p ? toStaffPayment(p) : null,
      attempts: attempts.rows.map((a) => {
        // The decline the browser reported after this attempt opened (the first log at or after it).
        const log = logs.rows.find((l) => new Date(l.created_at) >= new Date(a.created_at));
        return {
          id: a.id,
          at: iso(a.created_at)!,
          amount: a.amount_cents / 100,
          status: a.status,
          declineReason: a.status === 'closed' ? reasonOf(log?.payload ?? null) : null,
        };
      }),
      plan,
      planHistory: plan ? planHistoryOf(events.rows) : [],
      timeline: events.rows.map(describeEvent),
    };
  });
}
