import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepRoutes } from '@paylink/shared';
import { seedLink } from '../../seed/sample-links.js';
import { apiHeaders, createTestApp, mintPatientToken } from '../../../test/support/context.js';
import { recordStatements } from '../../../test/support/statements.js';
import { listSteps } from '../links/index.js';
import { prepareStepDocuments } from './prepare-step-documents.js';
import { sha256Hex } from './submission-queries.js';

/** Issue 30: the step list's documents are written in one statement, and the answer is the list as stored. */
let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function newLink(paymentSourceId: 1 | 2) {
  const { link } = await seedLink(t.ctx, paymentSourceId === 2 ? { payorName: 'Paul Payor' } : {});
  const headers = apiHeaders(t.ctx, await mintPatientToken(t.ctx, link.id));
  const choice = await t.app.inject({
    method: 'POST',
    url: '/api/linkpaymenthistory',
    headers,
    payload: { linkId: link.id, paymentTypeId: 1, paymentSourceId, paymentAmount: 250 },
  });
  expect(choice.statusCode).toBe(200);
  return { id: link.id, headers };
}

/** Each step's submission: its kind, status and whether the step's URL carries its token. */
async function documents(linkId: string) {
  const steps = await listSteps(t.ctx.db, linkId);
  const subs = await t.ctx.db.query<{ link_step_id: number; kind: string; token_hash: string; snap: boolean }>(
    `select link_step_id, kind, token_hash, contract_snapshot is not null as snap from submission where link_id = $1`,
    [linkId],
  );
  return steps
    .filter((s) => s.document_url !== null || subs.rows.some((x) => x.link_step_id === s.id))
    .map((s) => {
      const sub = subs.rows.find((x) => x.link_step_id === s.id);
      const token = s.document_url?.split('/s/')[1] ?? '';
      return {
        route: s.route_path,
        kind: sub?.kind,
        snap: sub?.snap,
        urlOpensIt: sha256Hex(token) === sub?.token_hash,
      };
    });
}

describe('POST /api/linksteps/script (the patient information submitted)', () => {
  it('writes the list and its documents in one transaction of 9 statements (16 before); answers the list as stored', async () => {
    const l = await newLink(1);
    const counted = recordStatements(t.ctx.db);
    const r = await t.app
      .inject({
        method: 'POST',
        url: `/api/linksteps/script?linkId=${l.id}`,
        headers: { ...l.headers, 'content-type': 'application/json' },
      })
      .finally(counted.stop);
    expect(r.statusCode).toBe(200);
    // BEGIN, the link, its steps, its payment, the steps' insert, prepare's read, the documents' write (every
    // submission and URL), the audit row, COMMIT. Before: an insert and an update per document, a read of the contract
    // uploads and the steps read again.
    const inTx = counted.statements.slice(
      counted.statements.indexOf('BEGIN'),
      counted.statements.indexOf('COMMIT') + 1,
    );
    expect(inTx, inTx.join('\n---\n')).toHaveLength(9);

    const stored = await listSteps(t.ctx.db, l.id);
    expect(r.json()).toEqual(
      stored.map((s) => ({
        linkStepId: s.id,
        routePath: s.route_path,
        documentUrl: s.document_url,
        linkStepStatusId: s.status_id,
      })),
    );
    expect(await documents(l.id)).toEqual([
      { route: StepRoutes.invoice, kind: 'invoice', snap: false, urlOpensIt: true },
      { route: StepRoutes.patientId, kind: 'patient_id', snap: false, urlOpensIt: true },
      { route: StepRoutes.contract, kind: 'contract', snap: true, urlOpensIt: true },
    ]);
  });
});

describe('prepareStepDocuments', () => {
  it('is idempotent, replaces an unsigned document whose step lost its URL, and drops the authorisation when the patient pays', async () => {
    const l = await newLink(2);
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/linksteps/script?linkId=${l.id}`,
      headers: { ...l.headers, 'content-type': 'application/json' },
    });
    expect(r.statusCode).toBe(200);
    const first = await listSteps(t.ctx.db, l.id);
    const withUrl = first.filter((s) => s.document_url !== null);
    expect(withUrl.map((s) => s.route_path)).toEqual(
      expect.arrayContaining([StepRoutes.invoice, StepRoutes.payorId, StepRoutes.payment]),
    );

    // Again: nothing changes, nothing is written.
    const counted = recordStatements(t.ctx.db);
    const again = await t.ctx.db
      .transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: l.id }))
      .finally(counted.stop);
    expect(again.size).toBe(0);
    expect(counted.statements).toHaveLength(3); // BEGIN, the read, COMMIT
    expect(await listSteps(t.ctx.db, l.id)).toEqual(first);

    // The invoice's step lost its URL (its submission unsigned): a new submission, a new URL. The patient now pays:
    // the payment step's unsigned authorisation goes, and its URL with it.
    const invoice = first.find((s) => s.route_path === StepRoutes.invoice)!;
    const payment = first.find((s) => s.route_path === StepRoutes.payment)!;
    await t.ctx.db.query('update link_step set document_url = null where id = $1', [invoice.id]);
    await t.ctx.db.query('update payment set payment_source_id = 1 where link_id = $1', [l.id]);
    const oldInvoice = await t.ctx.db.query<{ id: string }>('select id from submission where link_step_id = $1', [
      invoice.id,
    ]);
    const urls = await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: l.id }));
    expect([...urls.keys()].sort()).toEqual([invoice.id, payment.id].sort());
    expect(urls.get(payment.id)).toBeNull();
    const after = await listSteps(t.ctx.db, l.id);
    expect(after.find((s) => s.id === invoice.id)!.document_url).toBe(urls.get(invoice.id));
    expect(after.find((s) => s.id === payment.id)!.document_url).toBeNull();
    const subs = await t.ctx.db.query<{ id: string; link_step_id: number; kind: string }>(
      'select id, link_step_id, kind from submission where link_id = $1',
      [l.id],
    );
    expect(subs.rows.find((s) => s.kind === 'payment_authorization')).toBeUndefined();
    const newInvoice = subs.rows.find((s) => s.link_step_id === invoice.id)!;
    expect(newInvoice.id).not.toBe(oldInvoice.rows[0]!.id);
    expect((await documents(l.id)).every((d) => d.urlOpensIt)).toBe(true);
  });
});
