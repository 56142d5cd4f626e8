import type { FastifyInstance } from 'fastify';
import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';
import { issueStaffToken } from '../staff/staff-tokens.js';
import { prepareStepDocuments } from './prepare-step-documents.js';
import { buildSignServer } from './sign-server.js';
import { pdfText, seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let sign: FastifyInstance;
let staffToken: string;

beforeAll(async () => {
  t = await createTestApp();
  sign = await buildSignServer(t.ctx);
  const u = await t.ctx.db.query<{ id: string }>(
    `insert into staff_user (email, name, password_hash, role) values ('coord@example.com', 'Coord', 'x', 'coordinator')
     returning id`,
  );
  staffToken = (await issueStaffToken(t.ctx.db, { userId: u.rows[0]!.id, label: 'test', ttlHours: 1 })).token;
});
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

const staff = () => ({ authorization: `Bearer ${staffToken}` });

describe('admin: signed documents', () => {
  it('lists a link’s documents and downloads the signed PDF, auditing both', async () => {
    const { linkId } = await seedLinkWithSteps(t.ctx.db);
    await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId }));
    const step = await t.ctx.db.query<{ document_url: string }>(
      'select document_url from link_step where link_id = $1 and route_path = $2',
      [linkId, StepRoutes.invoice],
    );
    const token = step.rows[0]!.document_url.split('/s/')[1]!;
    const page = await sign.inject({ method: 'GET', url: `/s/${token}` });
    const cfg = JSON.parse(/id="sign-config">(.*?)<\/script>/s.exec(page.body)![1]!);
    const done = await sign.inject({
      method: 'POST',
      url: `/s/${token}/complete`,
      payload: {
        signerName: 'María López',
        method: 'type',
        typedSignature: 'María López',
        documentSha256: cfg.documentSha256,
      },
    });
    expect(done.statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: `/api/admin/links/${linkId}/documents`, headers: staff() });
    expect(list.statusCode).toBe(200);
    const docs = list.json() as {
      kind: string;
      status: string;
      pdfUrl: string | null;
      originalSha256: string | null;
    }[];
    expect(docs.map((d) => [d.kind, d.status])).toEqual([
      ['invoice', 'completed'],
      ['patient_id', 'pending'],
      ['contract', 'pending'],
    ]);
    expect(docs[1]!.pdfUrl).toBeNull();
    const pdf = await t.app.inject({ method: 'GET', url: docs[0]!.pdfUrl!, headers: staff() });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="invoice-/);
    const text = (await pdfText(pdf.rawPayload)).join('\n');
    expect(text).toContain('María López');
    expect(text).toContain(docs[0]!.originalSha256!);

    const audit = await t.ctx.db.query<{ action: string; actor_type: string }>(
      `select action, actor_type from audit_event where link_id = $1 and actor_type = 'staff' order by id`,
      [linkId],
    );
    expect(audit.rows.map((a) => a.action)).toEqual(['documents.listed', 'document.downloaded']);
  });

  it('needs a staff token, and answers 404 for unknown links, unknown and unsigned documents', async () => {
    const { linkId } = await seedLinkWithSteps(t.ctx.db);
    await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId }));
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/links/${linkId}/documents` })).statusCode).toBe(401);
    const patientKey = { 'x-api-key': t.ctx.config.apiKey };
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/admin/links/${linkId}/documents`, headers: patientKey }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/admin/links/${'x'.repeat(22)}/documents`, headers: staff() }))
        .statusCode,
    ).toBe(404);
    const docs = (
      await t.app.inject({ method: 'GET', url: `/api/admin/links/${linkId}/documents`, headers: staff() })
    ).json() as { submissionId: string }[];
    const pending = await t.app.inject({
      method: 'GET',
      url: `/api/admin/documents/${docs[0]!.submissionId}/pdf`,
      headers: staff(),
    });
    expect(pending.statusCode).toBe(404);
    expect(pending.json().message).toContain('not signed yet');
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/admin/documents/00000000-0000-0000-0000-000000000000/pdf',
      headers: staff(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/documents/nope/pdf', headers: staff() })).statusCode,
    ).toBe(404);
  });
});
