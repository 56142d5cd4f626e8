import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.js';
import { createTestDb } from '../../test/support/test-db.js';
import { emitWebhookForAudit } from '../modules/webhooks/audit-events.js';
import { addAuditListener, batchAudits, changeWithAudit, SYSTEM_ACTOR, writeAudit } from './audit.js';

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
  addAuditListener(emitWebhookForAudit);
  await db.query(
    `insert into webhook_endpoint (url, events, secret) values ('https://example.test/hook', '{step.completed}', 'whsec_x')`,
  );
});
afterAll(async () => {
  await db.close();
});

describe('audit rows held in a transaction (issue 30)', () => {
  it('writes the rows in one statement, in order, with the webhook events of the subscribed actions', async () => {
    const statements: string[] = [];
    await db.transaction(async (tx) => {
      const counted = {
        query: ((sql: string, params?: unknown[]) => {
          statements.push(sql);
          return tx.query(sql, params);
        }) as typeof tx.query,
      };
      await batchAudits(counted, async () => {
        await writeAudit(counted, { ...SYSTEM_ACTOR, action: 'payment.approved', linkId: 'LNKBATCH1' });
        await writeAudit(counted, {
          ...SYSTEM_ACTOR,
          action: 'step.completed',
          linkId: 'LNKBATCH1',
          details: { linkStepId: 7, routePath: '/payment' },
        });
        await writeAudit(counted, { ...SYSTEM_ACTOR, action: 'link.completed', linkId: 'LNKBATCH1' });
        expect(statements).toHaveLength(0);
      });
    });
    expect(statements).toHaveLength(1);
    const rows = await db.query<{ action: string; details: unknown }>(
      `select action, details from audit_event where link_id = 'LNKBATCH1' order by id`,
    );
    expect(rows.rows.map((r) => r.action)).toEqual(['payment.approved', 'step.completed', 'link.completed']);
    expect(rows.rows[1]!.details).toEqual({ linkStepId: 7, routePath: '/payment' });
    // Only step.completed has a subscriber: one event, one delivery; payment.approved (no subscriber) records none.
    const events = await db.query<{ type: string; body: string; deliveries: number }>(
      `select e.type, e.body, (select count(*)::int from webhook_delivery d where d.event_id = e.id) as deliveries
         from webhook_event e where e.link_id = 'LNKBATCH1'`,
    );
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0]!.type).toBe('step.completed');
    expect(events.rows[0]!.deliveries).toBe(1);
    expect(JSON.parse(events.rows[0]!.body).data).toEqual({
      linkId: 'LNKBATCH1',
      linkStepId: 7,
      routePath: '/payment',
    });
  });

  it('writes nothing when the transaction throws', async () => {
    await expect(
      db.transaction((tx) =>
        batchAudits(tx, async () => {
          await writeAudit(tx, { ...SYSTEM_ACTOR, action: 'step.completed', linkId: 'LNKBATCH2' });
          throw new Error('refused');
        }),
      ),
    ).rejects.toThrow('refused');
    const r = await db.query(`select 1 from audit_event where link_id = 'LNKBATCH2'`);
    expect(r.rowCount).toBe(0);
  });
});

describe('changeWithAudit options (issue 30)', () => {
  const change = (url: string) => ({
    sql: 'update webhook_endpoint set url = url where url = $1 returning id',
    parameters: [url],
  });
  const rows = async (linkId: string) =>
    (await db.query('select 1 from audit_event where link_id = $1', [linkId])).rowCount;

  it('returning: answers the change rows, with the audit row written in the same statement', async () => {
    const r = await changeWithAudit<{ id: number }>(
      db,
      change('https://example.test/hook'),
      { ...SYSTEM_ACTOR, action: 'test.changed', linkId: 'LNKCWA1' },
      { returning: true },
    );
    expect(r).toHaveLength(1);
    expect(await rows('LNKCWA1')).toBe(1);
  });

  it('ifChanged: the audit row is written only when the change touched a row', async () => {
    const e = { ...SYSTEM_ACTOR, action: 'test.changed' };
    expect(
      await changeWithAudit(
        db,
        change('https://nowhere.test'),
        { ...e, linkId: 'LNKCWA2' },
        { ifChanged: true, returning: true },
      ),
    ).toEqual([]);
    expect(await rows('LNKCWA2')).toBe(0);
    await changeWithAudit(db, change('https://example.test/hook'), { ...e, linkId: 'LNKCWA3' }, { ifChanged: true });
    expect(await rows('LNKCWA3')).toBe(1);
  });

  it('ifChanged: a webhook event of the action is written only when the change touched a row', async () => {
    const e = { ...SYSTEM_ACTOR, action: 'step.completed', details: { linkStepId: 1 } };
    const events = async () =>
      Number((await db.query<{ n: string }>(`select count(*) as n from webhook_event`)).rows[0]!.n);
    const before = await events();
    await changeWithAudit(db, change('https://nowhere.test'), { ...e, linkId: 'LNKCWA4' }, { ifChanged: true });
    expect(await rows('LNKCWA4')).toBe(0);
    expect(await events()).toBe(before);
    await changeWithAudit(db, change('https://example.test/hook'), { ...e, linkId: 'LNKCWA5' }, { ifChanged: true });
    expect(await rows('LNKCWA5')).toBe(1);
    expect(await events()).toBe(before + 1);
  });
});

describe('no card number in an audit row (issue 41, item 3; decision 0240)', () => {
  it('redacts digit runs in every string of the details, alone, held in a batch and in changeWithAudit', async () => {
    const planted = { reason: 'card 4111 1111 1111 1111 ending in 1111', nested: { ua: 'X 4111111111111111' }, n: 7 };
    await writeAudit(db, { ...SYSTEM_ACTOR, action: 'test.planted', linkId: 'LNKDIGITS', details: planted });
    await db.transaction((tx) =>
      batchAudits(tx, async () => {
        await writeAudit(tx, { ...SYSTEM_ACTOR, action: 'test.planted', linkId: 'LNKDIGITS', details: planted });
        await writeAudit(tx, { ...SYSTEM_ACTOR, action: 'test.planted', linkId: 'LNKDIGITS', details: planted });
      }),
    );
    await changeWithAudit(
      db,
      { sql: 'select 1', parameters: [] },
      { ...SYSTEM_ACTOR, action: 'test.planted', linkId: 'LNKDIGITS', details: planted },
    );
    const rows = await db.query<{ details: unknown }>(`select details from audit_event where link_id = 'LNKDIGITS'`);
    expect(rows.rows).toHaveLength(4);
    for (const r of rows.rows) {
      expect(r.details).toEqual({
        reason: 'card [digits removed] ending in 1111',
        nested: { ua: 'X [digits removed]' },
        n: 7,
      });
    }
  });
});
