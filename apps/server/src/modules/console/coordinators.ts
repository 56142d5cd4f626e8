import type { Queryable } from '../../db/client.js';

/** Names for the board's and funnel's coordinator filters (no patient data: not audited). */
export async function listCoordinators(q: Queryable): Promise<{ id: string; name: string; email: string }[]> {
  const r = await q.query<{ id: string; name: string; email: string }>(
    `select id, name, email from staff_user s
     where (role in ('admin', 'coordinator') and disabled_at is null)
        or exists (select 1 from link l where l.created_by = s.id)
     order by lower(name), email`,
  );
  return r.rows;
}
