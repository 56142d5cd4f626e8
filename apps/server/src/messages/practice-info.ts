import { formatPhoneNumber } from '@paylink/shared';
import type { Queryable } from '../db/client.js';
import { practiceRows } from '../lib/practice-rows.js';

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
  // The two rows from this process's copy (issue 30: read on nearly every request); the override wins, as coalesce.
  const { practice: p, override: o } = await practiceRows(q);
  const name = o?.name ?? p?.name ?? null;
  const row = {
    name,
    sender_name: p ? (p.sender_name === p.name ? name : p.sender_name) : null,
    support_phone: o?.support_phone ?? p?.support_phone ?? null,
    support_email: o?.support_email ?? p?.support_email ?? null,
    logo_url: o?.logo_url ?? p?.logo_url ?? null,
  };
  const shown = row.name ?? fallback?.name ?? 'Paylink';
  return {
    name: shown,
    senderName: row.sender_name || fallback?.senderName || shown,
    // Written as the apps show it (a US number as (305) 555-0123, whatever the console or config stored).
    supportPhone: formatPhoneNumber(row.support_phone ?? fallback?.supportPhone),
    supportEmail: row.support_email ?? fallback?.supportEmail ?? '',
    logoUrl: row.logo_url ?? fallback?.logoUrl ?? null,
  };
}
