import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLink } from '../../seed/sample-links.js';
import { SYSTEM_ACTOR } from '../../lib/audit.js';
import { apiHeaders, createTestApp, mintPatientToken } from '../../../test/support/context.js';
import { markStepDocumentSigned, snapshotLinkData } from '../../../test/support/links.js';
import { recordStatements } from '../../../test/support/statements.js';
import { applyLinkChange, writeStepList } from './link-lifecycle.js';
import { findLink, listSteps } from './link-queries.js';

/**
 * PUT /api/linksteps without a transaction (issue 30, decision 0230): one read, one guarded write. A change made
 * between the two (a concurrent request) is driven by running it right after the read statement, not by timing.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
  // A subscriber, so the completion's webhook event is written (or not) with the audit row.
  await t.ctx.db.query(
    `insert into webhook_endpoint (url, events, secret) values ('https://example.test/steps', '{step.completed}', 'whsec_x')`,
  );
});
afterAll(async () => t.close());

async function linkWithSteps() {
  const { link } = await seedLink(t.ctx, {});
  const token = await mintPatientToken(t.ctx, link.id);
  const headers = apiHeaders(t.ctx, token);
  const r = await t.app.inject({
    method: 'POST',
    url: `/api/linksteps/script?linkId=${link.id}&paymentSourceId=1&paymentAmount=500`,
    headers,
  });
  expect(r.statusCode).toBe(200);
  const steps = r.json() as { linkStepId: number; routePath: string }[];
  const step = (route: string) => steps.find((s) => s.routePath === route)!.linkStepId;
  const put = (linkStepId: number, status: 2 | 4) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/linksteps?linkId=${link.id}&linkStepId=${linkStepId}&LinkStepStatusId=${status}`,
      headers: { ...headers, 'content-type': 'application/json' },
    });
  return { id: link.id, step, put };
}

const stepRow = async (id: number) =>
  (
    await t.ctx.db.query<{ status_id: number; completed_at: Date | null }>(
      'select status_id, completed_at from link_step where id = $1',
      [id],
    )
  ).rows[0]!;

const stepAudits = async (linkId: string) =>
  (
    await t.ctx.db.query<{ details: Record<string, unknown> }>(
      `select details from audit_event where link_id = $1 and action = 'step.updated' order by id`,
      [linkId],
    )
  ).rows.map((r) => r.details);

const webhookEvents = async (linkId: string) =>
  (
    await t.ctx.db.query<{ n: number }>(
      `select count(*)::int as n from webhook_event where link_id = $1 and type = 'step.completed'`,
      [linkId],
    )
  ).rows[0]!.n;

/** Runs `change` (through the lifecycle, as a coordinator's request would) right after PUT's read statement. */
function afterTheRead(change: () => Promise<unknown>, times = 1) {
  let left = times;
  return recordStatements(t.ctx.db, {
    afterEach: async (text) => {
      if (left > 0 && text.includes('json_agg')) {
        left--;
        await change();
      }
    },
  });
}

const lifecycle = (linkId: string, change: Parameters<typeof applyLinkChange>[1]['change']) =>
  t.ctx.db.transaction(async (tx) => {
    const link = (await findLink(tx, linkId, { forUpdate: true }))!;
    await applyLinkChange(tx, { actor: SYSTEM_ACTOR, link, change });
  });

describe('PUT /api/linksteps: one read, one write', () => {
  it('completes a signed document step in two statements, with its audit row and webhook event', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    await markStepDocumentSigned(t.ctx.db, invoice);
    const rec = recordStatements(t.ctx.db);
    const r = await l.put(invoice, 4);
    rec.stop();
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      linkStepId: invoice,
      linkStepStatusId: 4,
      routePath: '/patientinvoicedetail',
      nextRoutePath: '/patientiddocs',
    });
    // The read, then the update with its audit row and the webhook's CTEs: no BEGIN, no COMMIT.
    expect(rec.statements).toHaveLength(2);
    expect(rec.statements[0]).toMatch(/^select/);
    expect(rec.statements[1]).toMatch(/^with/);
    expect(await stepRow(invoice)).toMatchObject({ status_id: 4, completed_at: expect.any(Date) });
    expect(await stepAudits(l.id)).toEqual([
      { linkStepId: invoice, routePath: '/patientinvoicedetail', from: 1, to: 4 },
    ]);
    expect(await webhookEvents(l.id)).toBe(1);

    // Completing it again: the audit row only (from 4 to 4), no second event, still two statements.
    const again = recordStatements(t.ctx.db);
    expect((await l.put(invoice, 4)).statusCode).toBe(200);
    again.stop();
    expect(again.statements).toHaveLength(2);
    expect(await stepAudits(l.id)).toHaveLength(2);
    expect(await webhookEvents(l.id)).toBe(1);
  });

  it('refuses an unsigned document step in one statement and writes nothing', async () => {
    const l = await linkWithSteps();
    const before = await snapshotLinkData(t.ctx.db);
    const rec = recordStatements(t.ctx.db);
    const r = await l.put(l.step('/patientinvoicedetail'), 4);
    rec.stop();
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('document_not_signed');
    expect(rec.statements).toHaveLength(1);
    expect(await snapshotLinkData(t.ctx.db)).toBe(before);
  });

  it('honours a link expired between the read and the write: 409 link_not_active, the step unchanged', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    await markStepDocumentSigned(t.ctx.db, invoice);
    const rec = afterTheRead(() => lifecycle(l.id, { kind: 'expire' }));
    const r = await l.put(invoice, 4);
    rec.stop();
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: 'link_not_active', message: 'Link Expired.' });
    // Read, refused write, read again.
    expect(rec.statements).toHaveLength(3);
    expect((await stepRow(invoice)).status_id).toBe(1);
    expect(await stepAudits(l.id)).toEqual([]);
    expect(await webhookEvents(l.id)).toBe(0);
  });

  it('honours a cancel between the read and the write: its revoked session answers 401, nothing written', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    const rec = afterTheRead(() => lifecycle(l.id, { kind: 'cancel' }));
    const r = await l.put(invoice, 2);
    rec.stop();
    // As under the link's lock: the cancel revoked the session, which is refused first.
    expect(r.statusCode).toBe(401);
    expect((await stepRow(invoice)).status_id).toBe(1);
    expect(await stepAudits(l.id)).toEqual([]);
  });

  it('honours a rebuilt step list between the read and the write: the old step is gone (404)', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    const rebuild = () =>
      t.ctx.db.transaction(async (tx) => {
        const link = (await findLink(tx, l.id, { forUpdate: true }))!;
        const replacing = await listSteps(tx, l.id);
        await writeStepList(tx, {
          actor: SYSTEM_ACTOR,
          link,
          routes: replacing.map((s) => s.route_path),
          replacing,
          documents: t.ctx.stepDocuments,
        });
      });
    const rec = afterTheRead(rebuild);
    const r = await l.put(invoice, 2);
    rec.stop();
    expect(r.statusCode).toBe(404);
    expect(await stepAudits(l.id)).toEqual([]);
  });

  it('a concurrent completion of the same step: the second request reads again and answers as after it', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    await markStepDocumentSigned(t.ctx.db, invoice);
    let other: Awaited<ReturnType<typeof l.put>> | undefined;
    const rec = afterTheRead(async () => {
      other = await l.put(invoice, 4);
    });
    const r = await l.put(invoice, 4);
    rec.stop();
    expect(other!.statusCode).toBe(200);
    expect(r.statusCode).toBe(200);
    // The first completion's row says 1 → 4; the second, which read 1 but wrote after it, says 4 → 4 (no event).
    expect(await stepAudits(l.id)).toEqual([
      { linkStepId: invoice, routePath: '/patientinvoicedetail', from: 1, to: 4 },
      { linkStepId: invoice, routePath: '/patientinvoicedetail', from: 4, to: 4 },
    ]);
    expect(await webhookEvents(l.id)).toBe(1);
  });

  it('gives up after three refused writes with a retryable 503, having written nothing', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    // Someone moves the step after every read (1 → 2 → 1 ...): each write finds it changed.
    const rec = afterTheRead(
      () => t.ctx.db.query('update link_step set status_id = 3 - status_id where id = $1', [invoice]),
      10,
    );
    const r = await l.put(invoice, 2);
    rec.stop();
    expect(r.statusCode).toBe(503);
    expect(r.json().error).toBe('database_unavailable');
    expect(rec.statements).toHaveLength(6);
    expect(await stepAudits(l.id)).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('PUT /api/linksteps against a change in flight (PostgreSQL)', () => {
  it('waits for an expiry that holds the link when the write runs, then refuses with link_not_active', async () => {
    const l = await linkWithSteps();
    const invoice = l.step('/patientinvoicedetail');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: Promise<void> | undefined;
    // After the read: a coordinator's expiry takes the link's lock and has not committed when the write runs.
    const rec = afterTheRead(
      () =>
        new Promise<void>((locked) => {
          held = t.ctx.db.transaction(async (tx) => {
            const link = (await findLink(tx, l.id, { forUpdate: true }))!;
            await applyLinkChange(tx, { actor: SYSTEM_ACTOR, link, change: { kind: 'expire' } });
            locked();
            await released;
          });
        }),
    );
    let answered = false;
    const put = l.put(invoice, 2).finally(() => (answered = true));
    // The write waits for the expiry's lock (seen in pg_stat_activity, not by timing); then the expiry commits.
    while (!answered) {
      const waiting = await t.ctx.db.query(
        `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
           and query like '%update "link_step"%'`,
      );
      if (waiting.rowCount > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release();
    await held;
    const r = await put;
    rec.stop();
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: 'link_not_active', message: 'Link Expired.' });
    expect((await stepRow(invoice)).status_id).toBe(1);
    expect(await stepAudits(l.id)).toEqual([]);
  });
});
