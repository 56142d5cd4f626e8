import type { AppContext } from '../../context.js';
import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';
import { writeAudit } from '../../lib/audit.js';
import { linkState } from '../links/index.js';
import { enqueueMessage } from '../../messages/index.js';
import { formatDay, linkTimeZone, patientUrl, practiceFor, unsubscribeFor } from './link-messages.js';
import { reminderEmail, reminderSms } from './message-texts.js';
import { isOptedOut, mask } from '../../messages/opt-outs.js';
import { planReminder } from './plan-reminder.js';
import { loadReminderPlan, type ReminderPlan } from './reminder-plan.js';

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

type ReminderRow = Pick<
  Row<'link_reminder'>,
  'link_id' | 'channel' | 'last_sent_at' | 'last_reminder_at' | 'done_kinds'
>;

/**
 * One scheduler pass: claims due link_reminder rows one at a time (`for update skip locked` on the due-time index), so
 * several processes on one database never look at the same link together; the reminder is enqueued in the outbox in
 * the same transaction that records it, so it is sent exactly once. `now` is the clock (tests move it).
 */
export async function runDueReminders(ctx: Ctx, opts: { now?: Date; limit?: number } = {}): Promise<{ sent: number }> {
  const now = opts.now ?? new Date();
  const plan = await loadReminderPlan(ctx.db, ctx.config);
  let sent = 0;
  for (let i = 0; i < (opts.limit ?? 50); i++) {
    let claimed: string | null = null;
    try {
      const r = await ctx.db.transaction(async (tx) => {
        const row = await typed(tx)
          .selectFrom('link_reminder')
          .select(['link_id', 'channel', 'last_sent_at', 'last_reminder_at', 'done_kinds'])
          .where('next_check_at', '<=', now)
          .orderBy('next_check_at')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!row) return null;
        claimed = row.link_id;
        return { sent: await processReminder(ctx, tx, row, plan, now) };
      });
      if (!r) break;
      if (r.sent) sent++;
    } catch (err) {
      ctx.log.error({ err, linkId: claimed }, 'reminder pass failed for a link; trying again in an hour');
      if (!claimed) break;
      await typed(ctx.db)
        .updateTable('link_reminder')
        .set({ next_check_at: sql`${now}::timestamptz + interval '1 hour'` })
        .where('link_id', '=', claimed)
        .execute()
        .catch(() => undefined);
    }
  }
  return { sent };
}

async function processReminder(
  ctx: Ctx,
  tx: Queryable,
  row: ReminderRow,
  plan: ReminderPlan,
  now: Date,
): Promise<boolean> {
  const stop = async () => {
    await typed(tx)
      .updateTable('link_reminder')
      .set({ next_check_at: null, updated_at: sql`now()` })
      .where('link_id', '=', row.link_id)
      .execute();
    return false;
  };
  const link = await typed(tx).selectFrom('link').selectAll().where('id', '=', row.link_id).executeTakeFirst();
  if (!link || !link.reminders_enabled || linkState(link, now) !== 'active') return stop();
  const to = row.channel === 'sms' ? link.phone : link.email;
  if (!to || (await isOptedOut(tx, row.channel, to))) return stop();

  // Opened, last activity and the first open step in one round trip.
  const f = await typed(tx)
    .selectNoFrom(({ exists, selectFrom, fn }) => [
      exists(selectFrom('patient_session').select('link_id').where('link_id', '=', link.id))
        .$castTo<boolean>()
        .as('opened'),
      fn<Date | null>('greatest', [
        selectFrom('patient_session')
          .select((eb) => eb.fn.max('created_at').as('m'))
          .where('link_id', '=', link.id),
        selectFrom('link_step')
          .select((eb) => eb.fn.max('updated_at').as('m'))
          .where('link_id', '=', link.id),
        selectFrom('payment')
          .select((eb) => eb.fn.max('updated_at').as('m'))
          .where('link_id', '=', link.id),
      ]).as('last_activity'),
      selectFrom('link_step')
        .select('route_path')
        .where('link_id', '=', link.id)
        .where('status_id', '<>', 4)
        .orderBy('position')
        .limit(1)
        .as('step'),
    ])
    .executeTakeFirstOrThrow();
  const timeZone = await linkTimeZone(tx, ctx.config, link);
  const decision = planReminder(
    plan,
    {
      channel: row.channel,
      timeZone,
      lastSentAt: new Date(row.last_sent_at),
      expiresAt: new Date(link.expires_at),
      opened: f.opened,
      lastActivityAt: new Date(f.last_activity ?? row.last_sent_at),
      doneKinds: row.done_kinds,
      lastReminderAt: row.last_reminder_at ? new Date(row.last_reminder_at) : null,
    },
    now,
  );
  if (decision.send) {
    const practice = await practiceFor(tx, ctx.config);
    const lang = link.language;
    const url = patientUrl(ctx.config, link);
    const expiresOn = formatDay(new Date(link.expires_at), lang, timeZone);
    const base = { lang, firstName: link.first_name, step: f.step, kind: decision.send.kind, url, expiresOn };
    let message: { id: string };
    if (row.channel === 'sms') {
      const text = reminderSms({ ...base, practiceName: practice.name });
      message = await enqueueMessage(tx, { channel: 'sms', to, text, linkId: link.id, kind: 'link-reminder' });
    } else {
      const unsub = await unsubscribeFor(tx, ctx.config, to);
      const mail = reminderEmail({ ...base, practice, unsubscribeUrl: unsub.url });
      message = await enqueueMessage(tx, {
        channel: 'email',
        to,
        ...mail,
        linkId: link.id,
        kind: 'link-reminder',
        headers: unsub.headers,
      });
    }
    await typed(tx)
      .updateTable('link_reminder')
      .set((eb) => ({
        done_kinds: sql`done_kinds || ${decision.send!.covers}::text[]`,
        last_reminder_at: now,
        reminders_sent: eb('reminders_sent', '+', 1),
      }))
      .where('link_id', '=', link.id)
      .execute();
    await writeAudit(tx, {
      actorType: 'system',
      action: 'link.reminded',
      linkId: link.id,
      details: {
        channel: row.channel,
        to: mask(row.channel, to),
        kind: decision.send.kind,
        step: f.step,
        messageId: message.id,
      },
    });
  }
  await typed(tx)
    .updateTable('link_reminder')
    .set({ next_check_at: decision.nextCheckAt, updated_at: sql`now()` })
    .where('link_id', '=', link.id)
    .execute();
  return decision.send !== null;
}
