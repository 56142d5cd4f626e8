import type { Db } from '../../db/client.js';
import { writeAudit } from '../../lib/audit.js';
import type { Actor } from '../links/link-use-case.js';
import { toAdminPayment } from './admin-link-queries.js';

interface Row {
  link_id: string;
  first_name: string;
  last_name: string;
  created_at: Date;
  payment: Parameters<typeof toAdminPayment>[0];
}

/** Payments (chosen and approved), newest first. */
export async function listPayments(opts: {
  db: Db;
  actor: Actor;
  status?: 'chosen' | 'approved';
  limit: number;
  offset: number;
}) {
  const where = opts.status ? 'where p.status = $3' : '';
  const params: unknown[] = [opts.limit, opts.offset, ...(opts.status ? [opts.status] : [])];
  return opts.db.transaction(async (tx) => {
    const rows = await tx.query<Row>(
      `select p.link_id, l.first_name, l.last_name, p.created_at, to_jsonb(p) as payment
       from payment p join link l on l.id = p.link_id ${where}
       order by coalesce(p.paid_at, p.created_at) desc, p.id desc limit $1 offset $2`,
      params,
    );
    const total = await tx.query<{ n: number }>(
      `select count(*)::int as n from payment p ${opts.status ? 'where p.status = $1' : ''}`,
      opts.status ? [opts.status] : [],
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: 'admin.payments_listed',
      details: { status: opts.status ?? null, linkIds: rows.rows.map((r) => r.link_id) },
    });
    return {
      payments: rows.rows.map((r) => ({
        ...toAdminPayment(r.payment),
        linkId: r.link_id,
        firstName: r.first_name,
        lastName: r.last_name,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      total: total.rows[0]!.n,
    };
  });
}
