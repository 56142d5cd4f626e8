import type { Queryable } from '../../db/client.js';

/** What messages say about the practice (the single `practice` row H1 seeds from PRACTICE_* config). */
export interface PracticeInfo {
  name: string;
  senderName: string;
  supportPhone: string;
  supportEmail: string;
  logoUrl: string | null;
}

export async function loadPracticeInfo(q: Queryable, fallback?: Partial<PracticeInfo>): Promise<PracticeInfo> {
  const r = await q.query<{
    name: string;
    sender_name: string;
    support_phone: string;
    support_email: string;
    logo_url: string | null;
  }>('select name, sender_name, support_phone, support_email, logo_url from practice where id = 1');
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
