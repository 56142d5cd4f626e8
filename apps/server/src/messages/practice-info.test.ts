import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/support/test-db.js';
import { loadConfig } from '../config.js';
import { seedPractice } from '../seed/seed-practice.js';
import { forgetPracticeRows } from '../lib/practice-rows.js';
import { loadPracticeInfo } from './practice-info.js';

/** Messages, e-mails and PDFs write the practice's phone as the apps show it (shared `formatPhoneNumber`). */
describe('loadPracticeInfo', () => {
  const dbs: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.close();
  });

  it('writes a US support number as (305) 555-0123 however it was typed, and leaves others as stored', async () => {
    const db = await createTestDb();
    dbs.push(db);
    await seedPractice(db, loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PRACTICE_PHONE: '+1 305 555 0123' }));
    forgetPracticeRows(db);
    expect((await loadPracticeInfo(db)).supportPhone).toBe('(305) 555-0123');
    await db.query(`update practice set support_phone = '+52 55 1234 5678'`);
    forgetPracticeRows(db);
    expect((await loadPracticeInfo(db)).supportPhone).toBe('+52 55 1234 5678');
  });
});
