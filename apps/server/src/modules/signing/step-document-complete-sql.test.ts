import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';
import { markStepDocumentSigned } from '../../../test/support/links.js';
import { seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';
import { typed } from '../../db/typed.js';
import { isStepDocumentComplete, prepareStepDocuments, stepDocumentCompleteSql } from './prepare-step-documents.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function preparedLink(opts: Parameters<typeof seedLinkWithSteps>[1] = {}) {
  const { linkId } = await seedLinkWithSteps(t.ctx.db, opts);
  await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId }));
  const rows = await t.ctx.db.query<{ id: number; route_path: string }>(
    'select id, route_path from link_step where link_id = $1',
    [linkId],
  );
  const step = (route: string) => rows.rows.find((r) => r.route_path === route)!.id;
  return { linkId, step };
}

/** Both answers, the statement's and the SQL fragment's (moveStep reads the fragment beside the link, issue 30). */
async function both(linkId: string, linkStepId: number): Promise<[boolean, boolean]> {
  const byQueries = await isStepDocumentComplete(t.ctx.db, { linkId, linkStepId });
  const r = await typed(t.ctx.db)
    .selectNoFrom(stepDocumentCompleteSql({ linkId, linkStepId }).as('complete'))
    .executeTakeFirstOrThrow();
  return [byQueries, r.complete];
}

describe('stepDocumentCompleteSql', () => {
  it('answers as isStepDocumentComplete: signed or not, this link only, steps without a document, the payor', async () => {
    const a = await preparedLink();
    const b = await preparedLink();
    const invoiceA = a.step(StepRoutes.invoice);
    expect(await both(a.linkId, invoiceA)).toEqual([false, false]);
    await markStepDocumentSigned(t.ctx.db, invoiceA);
    expect(await both(a.linkId, invoiceA)).toEqual([true, true]);
    expect(await both(b.linkId, invoiceA)).toEqual([false, false]);
    expect(await both(a.linkId, a.step(StepRoutes.contract))).toEqual([false, false]);
    expect(await both(a.linkId, a.step(StepRoutes.patientInfo))).toEqual([true, true]);
    expect(await both(a.linkId, a.step(StepRoutes.payment))).toEqual([true, true]);
    expect(await both(a.linkId, 999_999)).toEqual([false, false]);
    const p = await preparedLink({ source: 2 });
    expect(await both(p.linkId, p.step(StepRoutes.payment))).toEqual([false, false]);
    await markStepDocumentSigned(t.ctx.db, p.step(StepRoutes.payment));
    expect(await both(p.linkId, p.step(StepRoutes.payment))).toEqual([true, true]);
  });
});
