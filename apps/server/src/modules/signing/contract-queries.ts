import { sql } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { typed, type Row } from '../../db/typed.js';

/** One language's uploaded contract (the console's upload; decision 0168). */
export type PracticeContractRow = Row<'practice_contract'>;

export async function listPracticeContractRows(q: Queryable): Promise<PracticeContractRow[]> {
  return typed(q).selectFrom('practice_contract').selectAll().execute();
}

/** A new upload replaces the language's previous one. */
export async function upsertPracticeContract(q: Queryable, c: Omit<PracticeContractRow, 'uploaded_at'>): Promise<void> {
  await typed(q)
    .insertInto('practice_contract')
    .values(c)
    .onConflict((oc) =>
      oc.column('lang').doUpdateSet((eb) => ({
        storage_key: eb.ref('excluded.storage_key'),
        sha256: eb.ref('excluded.sha256'),
        file_name: eb.ref('excluded.file_name'),
        size_bytes: eb.ref('excluded.size_bytes'),
        page_count: eb.ref('excluded.page_count'),
        uploaded_by: eb.ref('excluded.uploaded_by'),
        uploaded_at: sql`now()`,
      })),
    )
    .execute();
}

export async function deletePracticeContract(q: Queryable, lang: PracticeContractRow['lang']) {
  return typed(q).deleteFrom('practice_contract').where('lang', '=', lang).returningAll().executeTakeFirst();
}

/** Display names (or e-mails) of the staff who uploaded contracts. */
export async function staffNames(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await typed(q).selectFrom('staff_user').select(['id', 'name', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((n) => [n.id, n.name || n.email]));
}
