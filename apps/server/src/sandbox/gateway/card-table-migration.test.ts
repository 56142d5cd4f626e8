import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../db/client.js';
import { MIGRATIONS_DIR, migrate } from '../../db/migrate.js';
import { cardStoredBy, storedCard } from './store.js';

/**
 * Migration 0200 moves the sandbox's stored cards out of `sandbox_gateway_session` into `sandbox_gateway_card`
 * (decision 0213): a database with cards stored the old way keeps them, and its token sales name their card.
 */
let db: Db | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-mig-'));
afterAll(async () => {
  await db?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('migration 0200: sandbox_gateway_card', () => {
  it('keeps the cards stored in session rows, drops those rows and names the card of each token sale', async () => {
    for (const f of fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql') && f < '0200')) {
      fs.copyFileSync(path.join(MIGRATIONS_DIR, f), path.join(tmp, f));
    }
    db = await openPglite();
    await migrate(db, tmp);
    const token = '4000123412340002';
    await db.query(
      `insert into sandbox_gateway_session (token, merchant_id, amount_cents, merchant_txn_id, expires_at, used_at)
       values ('deposit-session', '0099999', 20000, 'ours1', now(), now()),
              ($1, '0099999', 20000, 'T1', '2030-01-01T00:00:00Z', now()),
              ('mit:' || $1 || ':T2', '0099999', 30000, 'ours2', now(), now())`,
      [token],
    );
    await db.query(
      `insert into sandbox_gateway_transaction (txn_id, session_token, merchant_id, merchant_txn_id, amount_cents, result,
         result_message, approval_code, card_brand, card_last4, first_name)
       values ('T1', 'deposit-session', '0099999', 'ours1', 20000, '0', 'APPROVAL', 'ABC123', 'VISA', '0002', 'Ana'),
              ('T2', 'mit:' || $1 || ':T2', '0099999', 'ours2', 30000, '0', 'APPROVAL', 'DEF456', 'VISA', '0002', 'Ana')`,
      [token],
    );
    expect((await migrate(db))[0]).toBe('0200_sandbox_gateway_card.sql');
    const card = { token, merchantId: '0099999', storedByTxnId: 'T1', cardLast4: '0002', expiry: '1229' };
    expect(await storedCard(db, '0099999', token)).toMatchObject(card);
    expect(await storedCard(db, '0011111', token)).toBeNull();
    expect(await cardStoredBy(db, 'T1')).toMatchObject(card);
    expect(await cardStoredBy(db, 'T2')).toBeNull();
    const sessions = await db.query<{ token: string }>('select token from sandbox_gateway_session order by token');
    expect(sessions.rows.map((r) => r.token)).toEqual(['deposit-session', `mit:${token}:T2`]);
    const sales = await db.query<{ txn_id: string; card_token: string | null }>(
      'select txn_id, card_token from sandbox_gateway_transaction order by txn_id',
    );
    expect(sales.rows).toEqual([
      { txn_id: 'T1', card_token: null },
      { txn_id: 'T2', card_token: token },
    ]);
  });
});
