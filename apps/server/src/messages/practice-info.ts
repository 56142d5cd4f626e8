import type { Queryable } from '../db/client.js';
import type { Row } from '../db/typed.js';

/**
 * What messages say about the practice: the single `practice` row H1 seeds from PRACTICE_* config, with the
 * console's overrides (practice_override, issue 13) on top. The sender name follows an overridden practice name
 * unless PRACTICE_SENDER_NAME set its own.
 */
export interface PracticeInfo {
  name: string;
  senderName: string;
  supportPhone: string;
  supportEmail: string;
  logoUrl: string | null;
}

export async function loadPracticeInfo(q: Queryable, fallback?: Partial<PracticeInfo>): Promise<PracticeInfo> {
  // One row from two tables with coalesce: plain SQL, typed by the practice table's own row type.
  const r = await q.query<
    Pick<Row<'practice'>, 'name' | 'sender_name' | 'support_phone' | 'support_email' | 'logo_url'>
  >(
    `select coalesce(o.name, p.name) as name,
       case when p.sender_name = p.name then coalesce(o.name, p.name) else p.sender_name end as sender_name,
       coalesce(o.support_phone, p.support_phone) as support_phone,
       coalesce(o.support_email, p.support_email) as support_email,
       coalesce(o.logo_url, p.logo_url) as logo_url
     from (select 1) one left join practice p on p.id = 1 left join practice_override o on o.id = 1`,
  );
  const row = r.rows[0];
  const name = row?.name ?? fallback?.name ?? 'Paylink';
  return {
    name,
    senderName: row?.sender_name || fallback?.senderName || name,
    supportPhone: row?.support_phone ?? fallback?.supportPhone ?? '',
    supportEmail: row?.support_email ?? fallback?.supportEmail ?? '',
    logoUrl: row?.logo_url ?? fallback?.logoUrl ?? null,
  };
}
