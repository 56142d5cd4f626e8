import type { FastifyInstance } from 'fastify';
import { StepRoutes } from '@paylink/shared';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import { createTestApp } from '../../../test/support/context.js';
import {
  activeContentIn,
  activeContentPdf,
  linkTargets,
  pdfText,
  seedLinkWithSteps,
} from '../../../test/support/signing-fixtures.js';
import { cleanStoredContracts, setPracticeContract } from './contracts.js';
import { prepareStepDocuments } from './prepare-step-documents.js';
import { buildSignServer } from './sign-server.js';
import { sha256Hex, submissionForStep } from './submission-queries.js';

/**
 * Issue 16, item 3 (decision 0168): the contract per language set in the console's Settings. Admins upload, see and
 * remove; new links get the upload in their reader's language; links prepared before keep theirs.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
let sign: FastifyInstance;
const auth: Record<'admin' | 'coordinator' | 'billing', Record<string, string>> = {} as never;

beforeAll(async () => {
  t = await createTestApp({
    UPLOAD_MAX_MB: '1',
    PUBLIC_URL: 'https://pay.example.test',
    SIGN_ORIGIN: 'https://sign.example.test',
  });
  sign = await buildSignServer(t.ctx);
  await sign.ready();
  for (const role of ['admin', 'coordinator', 'billing'] as const) {
    auth[role] = { authorization: `Bearer ${await staffToken(t.ctx.db, { email: `${role}@contracts.test`, role })}` };
  }
});
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

/** A one-page PDF whose text tells it apart. */
async function contractPdf(title: string, pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]).drawText(title, { x: 72, y: 700, size: 18, font });
  return Buffer.from(await doc.save());
}

const upload = (lang: string, bytes: Buffer, who = auth.admin, fileName = `contract-${lang}.pdf`) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/settings/contracts/${lang}?fileName=${encodeURIComponent(fileName)}`,
    headers: { ...who, 'content-type': 'application/pdf' },
    payload: bytes,
  });
const statuses = async () => {
  const r = await t.app.inject({ url: '/api/admin/settings/contracts', headers: auth.admin });
  expect(r.statusCode).toBe(200);
  return Object.fromEntries(
    (
      r.json().contracts as { lang: string; source: string; fallback: boolean; upload: { fileName: string } | null }[]
    ).map((c) => [c.lang, c]),
  );
};
const contractRows = async () =>
  (await t.ctx.db.query('select lang, sha256, file_name from practice_contract order by lang')).rows;

async function newContractToken() {
  const seeded = await seedLinkWithSteps(t.ctx.db);
  await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: seeded.linkId }));
  const step = seeded.steps.find((s) => s.route_path === StepRoutes.contract)!;
  return { token: await tokenOf(seeded.linkId), stepId: step.id };
}
async function tokenOf(linkId: string) {
  const r = await t.ctx.db.query<{ document_url: string }>(
    'select document_url from link_step where link_id = $1 and route_path = $2',
    [linkId, StepRoutes.contract],
  );
  return r.rows[0]!.document_url.split('/s/')[1]!;
}

/** What a reader of `lng` sees: the PDF's first page text, its SHA-256, and the page's (note, hash). */
async function readerSees(token: string, lng: 'en' | 'es') {
  const pdf = await sign.inject({ url: `/s/${token}/document.pdf?lng=${lng}` });
  expect(pdf.statusCode).toBe(200);
  const page = await sign.inject({ url: `/s/${token}?lng=${lng}` });
  const config = JSON.parse(/<script type="application\/json" id="sign-config">(.*?)<\/script>/s.exec(page.body)![1]!);
  return {
    text: (await pdfText(pdf.rawPayload))[0] ?? '',
    sha256: sha256Hex(pdf.rawPayload),
    pageSha256: config.documentSha256 as string,
    note: page.body.includes('contract-lang-note'),
  };
}

describe('the contract per language in the console settings (issue 16, item 3)', () => {
  it('only admins upload, list, read or remove; nothing changes when refused', async () => {
    const pdf = await contractPdf('Refused contract');
    for (const role of ['coordinator', 'billing'] as const) {
      expect((await upload('en', pdf, auth[role])).statusCode).toBe(403);
      expect((await t.app.inject({ url: '/api/admin/settings/contracts', headers: auth[role] })).statusCode).toBe(403);
      expect(
        (await t.app.inject({ url: '/api/admin/settings/contracts/en/pdf', headers: auth[role] })).statusCode,
      ).toBe(403);
      expect(
        (await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/en', headers: auth[role] }))
          .statusCode,
      ).toBe(403);
    }
    expect((await upload('en', pdf, {})).statusCode).toBe(401);
    expect(await contractRows()).toEqual([]);
  });

  it('refuses a file that is not a usable PDF with a message (4xx) and keeps what was in effect', async () => {
    const before = await statuses();
    const cases: [Buffer, number, string][] = [
      [Buffer.from('GIF89a not a contract at all'), 415, 'contract_not_pdf'],
      [Buffer.from('%PDF-1.7\nthis is not really a PDF'), 400, 'contract_unreadable'],
      [Buffer.from(await (await PDFDocument.create()).save({ addDefaultPage: false })), 400, 'contract_no_pages'],
      [Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024 * 1024 + 10, 32)]), 413, 'payload_too_large'],
    ];
    for (const [bytes, status, code] of cases) {
      const r = await upload('es', bytes);
      expect(r.statusCode, code).toBe(status);
      expect(r.json().error).toBe(code);
      expect(r.json().message).toMatch(/\w/);
    }
    const json = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/contracts/es',
      headers: auth.admin,
      payload: { pdf: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/admin/settings/contracts/fr', headers: auth.admin })).statusCode,
    ).toBe(400);
    expect(await contractRows()).toEqual([]);
    expect(await statuses()).toEqual(before);
  });

  it('new links get the uploaded contract in their language; links prepared before keep theirs; removal falls back', async () => {
    // Before any upload: the bundled samples.
    const s0 = await statuses();
    expect(s0.en).toMatchObject({ source: 'sample', fallback: false, upload: null });
    expect(s0.es).toMatchObject({ source: 'sample', fallback: false, upload: null });
    const early = await newContractToken();
    const earlyEs = await readerSees(early.token, 'es');
    expect(earlyEs.text).toContain('Acuerdo Financiero');

    // An English upload only: Spanish readers of new links get it with the note.
    const en = await contractPdf('Clinica Sol Patient Agreement EN');
    const up = await upload('en', en, auth.admin, 'Sol agreement.pdf');
    expect(up.statusCode).toBe(200);
    const s1 = Object.fromEntries(up.json().contracts.map((c: { lang: string }) => [c.lang, c]));
    expect(s1.en).toMatchObject({ source: 'upload', upload: { fileName: 'Sol agreement.pdf', pageCount: 1 } });
    // What is stored is the cleaned copy (issue 26): its hash and size are what readers get and sign.
    const enSha: string = s1.en.upload.sha256;
    expect(up.json().removed).toEqual([]);
    expect(s1.es).toMatchObject({ source: 'upload', fallback: true, upload: null });
    const mid = await newContractToken();
    const midEs = await readerSees(mid.token, 'es');
    expect(midEs).toMatchObject({ sha256: enSha, pageSha256: enSha, note: true });

    // And a Spanish upload: Spanish readers get it, English readers the English one.
    const es = await contractPdf('Contrato de Clinica Sol ES', 2);
    const upEs = await upload('es', es);
    expect(upEs.statusCode).toBe(200);
    const esSha: string = upEs.json().contracts.find((c: { lang: string }) => c.lang === 'es').upload.sha256;
    const late = await newContractToken();
    const lateEs = await readerSees(late.token, 'es');
    expect(lateEs).toMatchObject({ sha256: esSha, pageSha256: esSha, note: false });
    expect(lateEs.text).toContain('Contrato de Clinica Sol ES');
    const lateEn = await readerSees(late.token, 'en');
    expect(lateEn.text).toContain('Clinica Sol Patient Agreement EN');
    expect(lateEn.sha256).toBe(enSha);

    // The admin opens the Spanish contract in effect.
    const pdf = await t.app.inject({ url: '/api/admin/settings/contracts/es/pdf?download=1', headers: auth.admin });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment/);
    expect(sha256Hex(pdf.rawPayload)).toBe(esSha);

    // Links prepared earlier keep the contract they were given (open or signed later).
    expect((await readerSees(early.token, 'es')).sha256).toBe(earlyEs.sha256);
    expect((await readerSees(mid.token, 'es')).sha256).toBe(enSha);
    const signed = await sign.inject({
      method: 'POST',
      url: `/s/${early.token}/complete?lng=es`,
      payload: {
        lang: 'es',
        signerName: 'María López',
        method: 'type',
        typedSignature: 'María López',
        documentSha256: earlyEs.pageSha256,
      },
    });
    expect(signed.statusCode).toBe(200);
    const earlySub = await submissionForStep(t.ctx.db, early.stepId);
    expect(earlySub!.original_sha256).toBe(earlyEs.sha256);

    // Removal: back to the English one with the note for Spanish readers, then to the samples.
    const del = await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/es', headers: auth.admin });
    expect(del.statusCode).toBe(200);
    expect((await statuses()).es).toMatchObject({ source: 'upload', fallback: true, upload: null });
    const after = await newContractToken();
    expect(await readerSees(after.token, 'es')).toMatchObject({ sha256: enSha, note: true });
    // The Spanish link prepared while the Spanish upload was in effect keeps it.
    expect((await readerSees(late.token, 'es')).sha256).toBe(esSha);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/en', headers: auth.admin }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/en', headers: auth.admin }))
        .statusCode,
    ).toBe(404);
    const s2 = await statuses();
    expect(s2.en).toMatchObject({ source: 'sample', upload: null });
    expect(s2.es).toMatchObject({ source: 'sample', fallback: false, upload: null });
    expect((await readerSees((await newContractToken()).token, 'es')).text).toContain('Acuerdo Financiero');

    // Every change is audited, with who and which file.
    const audit = await t.ctx.db.query<{ action: string; actor_id: string; details: { lang: string; sha256: string } }>(
      `select action, actor_id, details from audit_event where action like 'practice.contract_%' order by id`,
    );
    expect(audit.rows.map((r) => `${r.action} ${r.details.lang}`)).toEqual([
      'practice.contract_uploaded en',
      'practice.contract_uploaded es',
      'practice.contract_removed es',
      'practice.contract_removed en',
    ]);
    expect(audit.rows[1]!.details.sha256).toBe(esSha);
    expect(audit.rows[0]!.actor_id).toBeTruthy();
  });
});

describe('an uploaded contract carries nothing that runs (issue 26, Low)', () => {
  it('takes off scripts, launch actions, attachments and form fields; keeps the text and the web link', async () => {
    const trapped = await activeContentPdf('Clinica Luna contract with scripts');
    // The finding: all of it was stored and served as it was.
    expect(await activeContentIn(trapped)).toEqual(
      expect.arrayContaining(['AA', 'AcroForm', 'EmbeddedFile', 'EmbeddedFiles', 'JS', 'JavaScript', 'Launch']),
    );
    const r = await upload('en', trapped, auth.admin, 'luna.pdf');
    expect(r.statusCode).toBe(200);
    expect(r.json().removed).toEqual(['actions', 'attachments', 'forms', 'scripts']);

    const served = await t.app.inject({ url: '/api/admin/settings/contracts/en/pdf', headers: auth.admin });
    expect(served.statusCode).toBe(200);
    expect(await activeContentIn(served.rawPayload)).toEqual([]);
    expect(served.rawPayload.toString('latin1')).not.toMatch(/app\.alert|cmd\.exe|payload\.exe|MZ not really/);
    expect((await pdfText(served.rawPayload)).join(' ')).toContain('Clinica Luna contract with scripts');
    expect(await linkTargets(served.rawPayload)).toEqual(['https://clinic.example/privacy']);

    // What a patient reads and signs is the cleaned copy, and so is the signed record staff open later.
    const link = await newContractToken();
    const sees = await readerSees(link.token, 'en');
    expect(sees.sha256).toBe(sha256Hex(served.rawPayload));
    const signed = await sign.inject({
      method: 'POST',
      url: `/s/${link.token}/complete?lng=en`,
      payload: {
        lang: 'en',
        signerName: 'Ana Ruiz',
        method: 'type',
        typedSignature: 'Ana Ruiz',
        documentSha256: sees.pageSha256,
      },
    });
    expect(signed.statusCode).toBe(200);
    const sub = await submissionForStep(t.ctx.db, link.stepId);
    const record = await t.ctx.providers.storage.get(sub!.signed_storage_key!);
    expect(await activeContentIn(record!)).toEqual([]);
    expect((await pdfText(record!)).join(' ')).toContain('Ana Ruiz');

    const audit = await t.ctx.db.query<{ details: { removed: string[] } }>(
      `select details from audit_event where action = 'practice.contract_uploaded' order by id desc limit 1`,
    );
    expect(audit.rows[0]!.details.removed).toEqual(['actions', 'attachments', 'forms', 'scripts']);
    await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/en', headers: auth.admin });
  });

  it('an upload stored by an older version with scripts is replaced by its clean copy at start', async () => {
    // As an older version stored it: the upload as it came.
    const trapped = await activeContentPdf('Contract uploaded last year');
    const admin = await t.ctx.db.query<{ id: string }>(
      `select id from staff_user where email = 'admin@contracts.test'`,
    );
    const actor = { actorType: 'staff' as const, actorId: admin.rows[0]!.id, requestId: null, ip: null };
    await t.ctx.db.transaction((tx) =>
      setPracticeContract(tx, t.ctx.providers.storage, {
        lang: 'es',
        bytes: new Uint8Array(trapped),
        fileName: 'old.pdf',
        pageCount: 1,
        removed: [],
        userId: admin.rows[0]!.id,
        actor,
      }),
    );
    const before = await t.app.inject({ url: '/api/admin/settings/contracts/es/pdf', headers: auth.admin });
    expect(await activeContentIn(before.rawPayload)).toContain('JavaScript');

    expect(await cleanStoredContracts(t.ctx.db, t.ctx.providers.storage)).toEqual(['es']);
    const after = await t.app.inject({ url: '/api/admin/settings/contracts/es/pdf', headers: auth.admin });
    expect(await activeContentIn(after.rawPayload)).toEqual([]);
    expect((await pdfText(after.rawPayload)).join(' ')).toContain('Contract uploaded last year');
    expect((await statuses()).es!.upload).toMatchObject({ fileName: 'old.pdf' });
    const audit = await t.ctx.db.query<{ actor_type: string; details: { removed: string[] } }>(
      `select actor_type, details from audit_event where action = 'practice.contract_cleaned'`,
    );
    expect(audit.rows).toEqual([
      {
        actor_type: 'system',
        details: expect.objectContaining({ removed: ['actions', 'attachments', 'forms', 'scripts'] }),
      },
    ]);
    // Once clean, a second start changes nothing.
    expect(await cleanStoredContracts(t.ctx.db, t.ctx.providers.storage)).toEqual([]);
    await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/es', headers: auth.admin });
  });

  it('refuses a contract of more pages than CONTRACT_MAX_PAGES with a message, and keeps what was in effect', async () => {
    const before = await statuses();
    const long = await contractPdf('A very long contract', 101);
    const r = await upload('es', long);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'contract_too_many_pages' });
    expect(r.json().message).toMatch(/more than 100 pages/);
    expect(await statuses()).toEqual(before);
    // The limit is the practice's to set, and the console shows it.
    const listed = await t.app.inject({ url: '/api/admin/settings/contracts', headers: auth.admin });
    expect(listed.json().maxPages).toBe(100);
    expect((await upload('es', await contractPdf('Exactly at the limit', 100))).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: '/api/admin/settings/contracts/es', headers: auth.admin });
  });
});
