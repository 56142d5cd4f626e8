import type { FastifyInstance } from 'fastify';
import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';
import { recordStatements } from '../../../test/support/statements.js';
import { isStepDocumentComplete, prepareStepDocuments } from './prepare-step-documents.js';
import { buildSignServer } from './sign-server.js';
import { fixture, multipartFile, pdfText, seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';
import { sha256Hex, submissionForStep } from './submission-queries.js';
import { SAMPLE_CONTRACT, SAMPLE_CONTRACT_ES } from './documents.js';
import { loadConfig } from '../../config.js';
import { insertPlan } from '../plans/plans-queries.js';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

type T = Awaited<ReturnType<typeof createTestApp>>;
let t: T;
let sign: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({
    UPLOAD_MAX_MB: '1',
    PUBLIC_URL: 'https://pay.example.test',
    SIGN_ORIGIN: 'https://sign.example.test',
  });
  sign = await buildSignServer(t.ctx);
  await sign.ready();
});
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

/** A link with prepared documents; returns each document step's token by route. */
async function preparedLink(opts: Parameters<typeof seedLinkWithSteps>[1] = {}, ctx: T['ctx'] = t.ctx) {
  const seeded = await seedLinkWithSteps(t.ctx.db, opts);
  await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, ctx, { linkId: seeded.linkId }));
  const rows = await t.ctx.db.query<{ id: number; route_path: string; document_url: string | null }>(
    'select id, route_path, document_url from link_step where link_id = $1 order by position',
    [seeded.linkId],
  );
  const byRoute = Object.fromEntries(rows.rows.map((r) => [r.route_path, r]));
  const token = (route: string) => byRoute[route]!.document_url!.split('/s/')[1]!;
  return { linkId: seeded.linkId, steps: rows.rows, byRoute, token };
}

const audits = async (linkId: string, action: string) =>
  (await t.ctx.db.query('select * from audit_event where link_id = $1 and action = $2', [linkId, action])).rowCount;

const pageConfig = (html: string) =>
  JSON.parse(/<script type="application\/json" id="sign-config">(.*?)<\/script>/s.exec(html)![1]!) as {
    parentOrigin: string;
    formID: string;
    completed: boolean;
    documentSha256: string | null;
    kind: string;
    previousTyped: string | null;
  };

async function signByTyping(token: string, name = 'María López', lng = 'en') {
  const page = await sign.inject({ method: 'GET', url: `/s/${token}?lng=${lng}` });
  const { documentSha256 } = pageConfig(page.body);
  return sign.inject({
    method: 'POST',
    url: `/s/${token}/complete`,
    payload: { lang: lng, signerName: name, method: 'type', typedSignature: name, documentSha256 },
  });
}

async function upload(token: string, side: string, name: string, type: string, bytes: Uint8Array) {
  const { body, contentType } = multipartFile(name, type, bytes);
  return sign.inject({
    method: 'POST',
    url: `/s/${token}/files?side=${side}`,
    payload: body,
    headers: { 'content-type': contentType },
  });
}

describe('step documents', () => {
  it('creates one submission per document step with an unguessable URL on the signing origin', async () => {
    const l = await preparedLink();
    const docs = l.steps.filter((s) => s.document_url);
    expect(docs.map((s) => s.route_path)).toEqual([StepRoutes.invoice, StepRoutes.patientId, StepRoutes.contract]);
    for (const s of docs) expect(s.document_url).toMatch(/^https:\/\/sign\.example\.test\/s\/[A-Za-z0-9_-]{43}$/);
    expect(new Set(docs.map((s) => s.document_url)).size).toBe(3);
    // The payment step has no document when the patient pays.
    expect(l.byRoute[StepRoutes.payment]!.document_url).toBeNull();
    // Only a hash of the token is kept with the submission.
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id);
    expect(sub!.token_hash).toBe(sha256Hex(l.token(StepRoutes.invoice)));
    expect(JSON.stringify(sub)).not.toContain(l.token(StepRoutes.invoice));
  });

  it('is idempotent: preparing again keeps the same URLs', async () => {
    const l = await preparedLink();
    await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: l.linkId }));
    const again = await t.ctx.db.query<{ document_url: string | null }>(
      'select document_url from link_step where link_id = $1 order by position',
      [l.linkId],
    );
    expect(again.rows.map((r) => r.document_url)).toEqual(l.steps.map((s) => s.document_url));
  });

  it('adds the payor ID and the payment authorisation when the payor pays', async () => {
    const l = await preparedLink({ source: 2 });
    expect(l.steps.filter((s) => s.document_url).map((s) => s.route_path)).toEqual([
      StepRoutes.invoice,
      StepRoutes.patientId,
      StepRoutes.payorId,
      StepRoutes.contract,
      StepRoutes.payment,
    ]);
    const page = await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.payment)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('non-refundable');
    expect(page.body).toContain('pre-op day');
    expect(page.body).toContain('Paul Payor');
    expect(page.body).toContain('$500.00');
  });

  it('knows on the server whether a step is signed, for this link only', async () => {
    const a = await preparedLink();
    const b = await preparedLink();
    const invoiceA = a.byRoute[StepRoutes.invoice]!.id;
    const check = (linkId: string, linkStepId: number) =>
      t.ctx.db.transaction((tx) => isStepDocumentComplete(tx, { linkId, linkStepId }));
    expect(await check(a.linkId, invoiceA)).toBe(false);
    expect((await signByTyping(a.token(StepRoutes.invoice))).statusCode).toBe(200);
    expect(await check(a.linkId, invoiceA)).toBe(true);
    expect(await check(b.linkId, invoiceA)).toBe(false);
    expect(await check(b.linkId, b.byRoute[StepRoutes.invoice]!.id)).toBe(false);
    expect(await check(a.linkId, a.byRoute[StepRoutes.patientInfo]!.id)).toBe(true);
    expect(await check(a.linkId, a.byRoute[StepRoutes.payment]!.id)).toBe(true);
    const p = await preparedLink({ source: 2 });
    expect(await check(p.linkId, p.byRoute[StepRoutes.payment]!.id)).toBe(false);
  });
});

describe('signing pages', () => {
  it('serves the invoice from the link data, framable by the app only, and audits the view', async () => {
    const l = await preparedLink({ amountCents: 123456 });
    const r = await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.invoice)}` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.headers['content-security-policy']).toContain('frame-ancestors https://pay.example.test');
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.headers['x-frame-options']).toBeUndefined();
    expect(r.headers['cache-control']).toBe('no-store');
    for (const s of ['Bella Vista Plastic Surgery', 'María López', 'Rhinoplasty', '$1,234.56', 'Deposit'])
      expect(r.body).toContain(s);
    expect(pageConfig(r.body).parentOrigin).toBe('https://pay.example.test');
    expect(await audits(l.linkId, 'document.viewed')).toBe(1);
  });

  it('a plan link’s invoice names the total, today’s deposit and each later charge, in English and Spanish (issue 41)', async () => {
    const l = await preparedLink({ amountCents: 50_000 });
    await insertPlan(t.ctx.db, {
      linkId: l.linkId,
      totalCents: 200_000,
      shape: { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' },
      createdBy: null,
    });
    const token = l.token(StepRoutes.invoice);
    const flat = (s: string) => s.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    const en = flat((await sign.inject({ method: 'GET', url: `/s/${token}?lng=en` })).body);
    const pdfEn = (
      await pdfText((await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf?lng=en` })).rawPayload)
    )
      .join(' ')
      .replace(/\s+/g, ' ');
    for (const text of [en, pdfEn]) {
      expect(text).not.toContain('invoiced separately');
      expect(text).toContain('Your payment plan');
      expect(text).toMatch(/Total of your quote \$2,000\.00/);
      expect(text).toMatch(/Today’s payment \$500\.00/);
      for (const d of ['January 31, 2098', 'February 28, 2098', 'March 31, 2098'])
        expect(text).toContain(`${d}: $500.00`);
      expect(text).toContain(
        'The rest of your total, $1,500.00, is charged on the dates above to the card you pay the deposit with',
      );
    }
    const es = flat((await sign.inject({ method: 'GET', url: `/s/${token}?lng=es` })).body);
    const pdfEs = (
      await pdfText((await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf?lng=es` })).rawPayload)
    )
      .join(' ')
      .replace(/\s+/g, ' ');
    for (const text of [es, pdfEs]) {
      expect(text).not.toContain('por separado');
      expect(text).toContain('Su plan de pagos');
      expect(text).toMatch(/Total de su presupuesto \$2,000\.00/);
      expect(text).toMatch(/Pago de hoy \$500\.00/);
      expect(text).toContain('31 de enero de 2098: $500.00');
      expect(text).toContain('a la tarjeta con la que pague el depósito');
    }
    // A link without a plan keeps the one-payment note.
    const plain = await preparedLink();
    expect((await sign.inject({ method: 'GET', url: `/s/${plain.token(StepRoutes.invoice)}` })).body).toContain(
      'invoiced separately',
    );
  });

  it('speaks Spanish with ?lng=es or Accept-Language', async () => {
    const l = await preparedLink();
    const q = await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.invoice)}?lng=es` });
    expect(q.body).toContain('<html lang="es">');
    expect(q.body).toContain('Firmar el documento');
    const h = await sign.inject({
      method: 'GET',
      url: `/s/${l.token(StepRoutes.contract)}`,
      headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
    });
    expect(h.body).toContain('Contrato del paciente');
    const en = await sign.inject({
      method: 'GET',
      url: `/s/${l.token(StepRoutes.contract)}?lng=en`,
      headers: { 'accept-language': 'es' },
    });
    expect(en.body).toContain('Patient contract');
  });

  it('serves forms that cannot submit natively, their button "Loading…" until sign.js is ready (issue 25)', async () => {
    const l = await preparedLink();
    for (const [route, lng, form, label, loading] of [
      [StepRoutes.invoice, 'en', 'sign-form', 'Sign document', 'Loading…'],
      [StepRoutes.contract, 'es', 'sign-form', 'Firmar el documento', 'Cargando…'],
      [StepRoutes.patientId, 'en', 'upload-form', 'Submit documents', 'Loading…'],
      [StepRoutes.patientId, 'es', 'upload-form', 'Enviar los documentos', 'Cargando…'],
    ] as const) {
      const r = await sign.inject({ method: 'GET', url: `/s/${l.token(route)}?lng=${lng}` });
      expect(r.body).toMatch(new RegExp(`<form id="${form}"[^>]* method="dialog"`));
      expect(r.body).toContain(
        `<button type="submit" id="submit" class="primary" disabled aria-busy="true" data-label="${label}">${loading}</button>`,
      );
      expect(r.headers['content-security-policy']).toContain("form-action 'none'");
    }
  });

  it('answers an unknown token with a 404 page', async () => {
    const r = await sign.inject({ method: 'GET', url: `/s/${'A'.repeat(43)}` });
    expect(r.statusCode).toBe(404);
    expect(r.body).toContain('This document link is not valid');
  });

  it('serves the contract PDF it will sign and the assets the page loads', async () => {
    const l = await preparedLink();
    const page = await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}` });
    const pdf = await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}/document.pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pageConfig(page.body).documentSha256).toBe(sha256Hex(pdf.rawPayload));
    for (const a of [
      'sign.js',
      'sign.css',
      'signature_pad.umd.min.js',
      'pdfjs/pdf.min.mjs',
      'pdfjs/pdf.worker.min.mjs',
    ]) {
      expect((await sign.inject({ method: 'GET', url: `/assets/${a}` })).statusCode, a).toBe(200);
    }
    expect((await sign.inject({ method: 'GET', url: '/assets/../package.json' })).statusCode).toBe(404);
  });

  it('serves sign.js compiled from assets/signing/sign.ts: plain JavaScript a browser can parse (decision 0200)', async () => {
    const r = await sign.inject({ method: 'GET', url: '/assets/sign.js', headers: { 'accept-encoding': 'identity' } });
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.body).toContain('function setupSignForm()');
    expect(r.body).not.toMatch(/import type|declare global|: HTMLElement/);
    // The contract's reflow is the server's own, bundled in: no import left for the browser to fetch from /assets.
    expect(r.body).toContain('function reflowText(');
    expect(r.body).not.toMatch(/^\s*(import|export)\s/m);
    // Node parses a module as a browser does: a leftover type annotation is a syntax error here.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-sign-'));
    try {
      fs.writeFileSync(path.join(dir, 'sign.mjs'), r.body);
      expect(() =>
        execFileSync(process.execPath, ['--check', path.join(dir, 'sign.mjs')], { stdio: 'pipe' }),
      ).not.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect((await sign.inject({ method: 'GET', url: '/assets/sign.ts' })).statusCode).toBe(404);
  });

  it("sends the contract's text in the page, compressed, so a phone needs pdf.js only for the printed pages (issue 30)", async () => {
    const l = await preparedLink();
    const url = `/s/${l.token(StepRoutes.contract)}`;
    const plain = await sign.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="pdf-text" class="pdf-text" data-from-server="" hidden><p');
    expect(plain.body).toMatch(/<h2>Patient Financial Agreement and Consent<\/h2>/);
    const br = await sign.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // The same page (the request id in the audit differs, not the HTML), a fraction of its size.
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('data-from-server');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });

  it('sends its scripts compressed, as the browser asks, and revalidates them with an ETag (issue 30)', async () => {
    const url = '/assets/pdfjs/pdf.min.mjs';
    const plain = await sign.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const br = await sign.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    // What was 430 KB on the wire is now about a quarter of it.
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await sign.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    const again = await sign.inject({ method: 'GET', url, headers: { 'if-none-match': String(br.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });
});

describe('signing lifecycle', () => {
  it('records a typed signature, then refuses the token', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.invoice);
    const original = (await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf` })).rawPayload;
    const r = await signByTyping(token, 'María López');
    expect(r.statusCode).toBe(200);
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id);
    expect(r.json()).toEqual({ formID: sub!.id });
    expect(sub).toMatchObject({ status: 'completed', signer_name: 'María López', signature_method: 'type' });
    expect(sub!.original_sha256).toBe(sha256Hex(original));
    expect(await audits(l.linkId, 'document.signed')).toBe(1);

    const again = await signByTyping(token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_completed' });
    // The page still confirms completion (and posts the message again) but offers no form.
    const page = await sign.inject({ method: 'GET', url: `/s/${token}` });
    expect(page.statusCode).toBe(200);
    expect(pageConfig(page.body)).toMatchObject({ completed: true, formID: sub!.id });
    expect(page.body).not.toContain('id="sign-form"');
    expect((await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf` })).statusCode).toBe(409);
    // Each read served is audited once, with what it read; the refused one (409) is not (one statement: issue 30).
    const rows = await t.ctx.db.query<{ action: string; actor_id: string; details: Record<string, unknown> }>(
      `select action, actor_id, details from audit_event
        where link_id = $1 and action in ('document.viewed', 'document.original_read') order by id`,
      [l.linkId],
    );
    expect(rows.rows).toEqual([
      {
        action: 'document.original_read',
        actor_id: `submission:${sub!.id}`,
        details: { submissionId: sub!.id, kind: 'invoice' },
      },
      {
        action: 'document.viewed',
        actor_id: `submission:${sub!.id}`,
        details: { submissionId: sub!.id, kind: 'invoice', status: 'pending' },
      },
      // signByTyping's page again (the signature is then refused), and the page above.
      ...[1, 2].map(() => ({
        action: 'document.viewed',
        actor_id: `submission:${sub!.id}`,
        details: { submissionId: sub!.id, kind: 'invoice', status: 'completed' },
      })),
    ]);
  });

  it('records one signature when two arrive at once', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.invoice);
    const { documentSha256 } = pageConfig((await sign.inject({ method: 'GET', url: `/s/${token}` })).body);
    const post = (name: string) =>
      sign.inject({
        method: 'POST',
        url: `/s/${token}/complete`,
        payload: { signerName: name, method: 'type', typedSignature: name, documentSha256 },
      });
    const answers = await Promise.all([post('First Signer'), post('Second Signer')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ error: 'already_completed' });
    expect(await audits(l.linkId, 'document.signed')).toBe(1);
    // The PDF stored is the one recorded (no lock: each attempt stores under its own key; the refused one's goes).
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id);
    const winner = answers.find((a) => a.statusCode === 200)!;
    expect(winner.json()).toEqual({ formID: sub!.id });
    const stored = await t.ctx.providers.storage.get(sub!.signed_storage_key!);
    expect(sha256Hex(stored!)).toBe(sub!.signed_sha256);
    const dir = path.join(t.ctx.config.dataDir, 'documents', 'submissions', sub!.id);
    if (t.ctx.providers.storage.driver === 'local' && fs.existsSync(dir)) expect(fs.readdirSync(dir)).toHaveLength(1);
  });

  it('records a signature in two statements and no transaction (issue 30: four before)', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.invoice);
    const { documentSha256 } = pageConfig((await sign.inject({ method: 'GET', url: `/s/${token}` })).body);
    const counted = recordStatements(t.ctx.db);
    const r = await sign
      .inject({
        method: 'POST',
        url: `/s/${token}/complete`,
        payload: { signerName: 'María López', method: 'type', typedSignature: 'María López', documentSha256 },
      })
      .finally(counted.stop);
    expect(r.statusCode).toBe(200);
    // The read (with the payment), then the completing update with its audit row.
    expect(counted.statements, counted.statements.join('\n---\n')).toHaveLength(2);
    expect(counted.statements).not.toContain('BEGIN');
    expect(await audits(l.linkId, 'document.signed')).toBe(1);
  });

  it('keeps no signed PDF when recording the signature fails, and records it when the patient signs again', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.invoice);
    const { documentSha256 } = pageConfig((await sign.inject({ method: 'GET', url: `/s/${token}` })).body);
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id);
    const post = () =>
      sign.inject({
        method: 'POST',
        url: `/s/${token}/complete`,
        payload: { signerName: 'Ana Ruiz', method: 'type', typedSignature: 'Ana Ruiz', documentSha256 },
      });
    // The database refuses the completing write (as a lost connection or a full disk would), after the PDF is stored.
    await t.ctx.db.query(`create function refuse_completion() returns trigger language plpgsql as $$
      begin if new.id = '${sub!.id}' and new.status = 'completed' then raise exception 'refused for the test'; end if;
      return new; end $$`);
    await t.ctx.db.query(`create trigger refuse_completion before update on submission
      for each row execute function refuse_completion()`);
    let refused;
    try {
      refused = await post();
    } finally {
      await t.ctx.db.query('drop trigger refuse_completion on submission');
      await t.ctx.db.query('drop function refuse_completion()');
    }
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    expect((await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id))!.status).toBe('pending');
    // A signed PDF no row names would stay in storage (health data) for good.
    expect(t.ctx.providers.storage.driver).toBe('local');
    const dir = path.join(t.ctx.config.dataDir, 'documents', 'submissions', sub!.id);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);

    const again = await post();
    expect(again.statusCode).toBe(200);
    const done = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id);
    expect(sha256Hex((await t.ctx.providers.storage.get(done!.signed_storage_key!))!)).toBe(done!.signed_sha256);
    expect(fs.readdirSync(dir)).toEqual([path.basename(done!.signed_storage_key!)]);
  });

  it('produces a signed PDF with the document, the signer, the time, the IP and the original SHA-256', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.contract);
    const original = (await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf` })).rawPayload;
    const page = await sign.inject({ method: 'GET', url: `/s/${token}` });
    const png = fixture('id-back.png');
    const r = await sign.inject({
      method: 'POST',
      url: `/s/${token}/complete`,
      remoteAddress: '203.0.113.7',
      headers: { 'user-agent': 'Vitest Browser/1.0' },
      payload: {
        lang: 'en',
        signerName: 'María López',
        method: 'draw',
        signatureDataUrl: `data:image/png;base64,${png.toString('base64')}`,
        documentSha256: pageConfig(page.body).documentSha256,
      },
    });
    expect(r.statusCode).toBe(200);
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.contract]!.id);
    const signed = await t.ctx.providers.storage.get(sub!.signed_storage_key!);
    expect(signed).not.toBeNull();
    expect(sha256Hex(signed!)).toBe(sub!.signed_sha256);
    const pages = await pdfText(signed!);
    const originalPages = await pdfText(original);
    // The contract's own pages come first, unchanged, then the signature page and the audit page.
    expect(pages.slice(0, originalPages.length)).toEqual(originalPages);
    expect(pages).toHaveLength(originalPages.length + 2);
    const [signaturePage, auditPage] = pages.slice(-2);
    expect(signaturePage).toContain('María López');
    expect(signaturePage).toContain('203.0.113.7');
    expect(auditPage).toContain(sha256Hex(original));
    expect(auditPage).toContain('Drawn signature');
    expect(auditPage).toContain('Vitest Browser/1.0');
    expect(auditPage).toContain(sub!.completed_at!.toISOString().slice(0, 16).replace('T', ' '));
  });

  it('signs the Spanish invoice and keeps names outside the PDF font readable', async () => {
    const l = await preparedLink();
    const r = await signByTyping(l.token(StepRoutes.invoice), 'Zoë Nguyễn 王', 'es');
    expect(r.statusCode).toBe(200);
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id);
    const pages = await pdfText((await t.ctx.providers.storage.get(sub!.signed_storage_key!))!);
    expect(pages[0]).toContain('Factura');
    expect(pages.at(-1)).toContain('Registro de auditoría');
    expect(pages.at(-1)).toContain('Zoë Nguy?n ?');
    expect(sub!.signer_name).toBe('Zoë Nguyễn 王');
  });

  it('refuses a signature without a name or a signature, and a document that changed since it was shown', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.invoice);
    const { documentSha256 } = pageConfig((await sign.inject({ method: 'GET', url: `/s/${token}` })).body);
    const post = (payload: object) => sign.inject({ method: 'POST', url: `/s/${token}/complete`, payload });
    const noName = await post({ method: 'type', typedSignature: 'x', documentSha256 });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().message).toBe('Enter your full name.');
    expect((await post({ signerName: 'A B', method: 'type', typedSignature: ' ', documentSha256 })).statusCode).toBe(
      422,
    );
    expect(
      (
        await post({
          signerName: 'A B',
          method: 'draw',
          signatureDataUrl: 'data:image/png;base64,AAAA',
          documentSha256,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await post({
          signerName: 'A B',
          method: 'draw',
          signatureDataUrl: `data:image/png;base64,${Buffer.alloc(400, 1).toString('base64')}`,
          documentSha256,
        })
      ).statusCode,
    ).toBe(422);
    // The amount changed after the page was shown: the signer must see the new invoice first.
    await t.ctx.db.query('update payment set amount_cents = 70000 where link_id = $1', [l.linkId]);
    const changed = await post({ signerName: 'A B', method: 'type', typedSignature: 'A B', documentSha256 });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ error: 'document_changed' });
    expect((await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.invoice]!.id))!.status).toBe('pending');
  });

  it.each([
    ['cancelled', `update link set status = 'cancelled', cancelled_at = now() where id = $1`, 'cancelled'],
    ['expired', `update link set expires_at = now() - interval '1 minute' where id = $1`, 'expired'],
    [
      'completed',
      `update link set status = 'completed', completed_at = now() where id = $1`,
      'Process has been completed',
    ],
  ])('refuses every call once the link is %s', async (_state, sql, text) => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.invoice);
    const { documentSha256 } = pageConfig((await sign.inject({ method: 'GET', url: `/s/${token}` })).body);
    await t.ctx.db.query(sql, [l.linkId]);
    const page = await sign.inject({ method: 'GET', url: `/s/${token}` });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain(text);
    expect(page.body).not.toContain('sign-form');
    const done = await sign.inject({
      method: 'POST',
      url: `/s/${token}/complete`,
      payload: { signerName: 'A B', method: 'type', typedSignature: 'A B', documentSha256 },
    });
    expect(done.statusCode).toBe(410);
    const up = await upload(l.token(StepRoutes.patientId), 'front', 'f.jpg', 'image/jpeg', fixture('id-front.jpg'));
    expect(up.statusCode).toBe(410);
    expect((await sign.inject({ method: 'GET', url: `/s/${token}/document.pdf` })).statusCode).toBe(410);
    // Refused reads are not audited: only the first page's view is.
    expect(await audits(l.linkId, 'document.viewed')).toBe(1);
    expect(await audits(l.linkId, 'document.original_read')).toBe(0);
  });
});

describe('a typed signature offered again (issue 16, 10g)', () => {
  it("offers the patient's typed signature on the patient's next document, never on the payor's", async () => {
    const l = await preparedLink({ source: 2 });
    const contractPage = async () =>
      (await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}` })).body;
    expect(await contractPage()).not.toContain('id="reuse-typed"');
    expect((await signByTyping(l.token(StepRoutes.invoice), 'María P. López')).statusCode).toBe(200);
    const page = await contractPage();
    expect(page).toContain('Use my typed signature “María P. López”');
    expect(pageConfig(page)).toMatchObject({ previousTyped: 'María P. López' });
    // The name they signed with comes back too, not only the name on file.
    expect(page).toContain(
      'id="signer-name" name="signerName" autocomplete="name" required maxlength="200" value="María P. López"',
    );
    // It opens on "Type", with that signature in place (issue 29, item 12).
    expect(page).toContain('id="method-type" aria-pressed="true"');
    expect(page).toContain('id="method-draw" aria-pressed="false"');
    expect(page).toContain('<div id="type-panel" class="panel">');
    expect(page).toContain('<div id="draw-panel" class="panel" hidden>');
    const payor = (await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.payment)}?lng=es` })).body;
    expect(payor).not.toContain('id="reuse-typed"');
    expect(pageConfig(payor)).toMatchObject({ previousTyped: null });
    expect(payor).toContain('id="method-draw" aria-pressed="true"');
  });

  it('never offers a signature someone else typed on the earlier document (issue 29, item 12)', async () => {
    const l = await preparedLink({ source: 2 });
    // On a shared phone, another person signed the invoice with their own name.
    expect((await signByTyping(l.token(StepRoutes.invoice), 'José García')).statusCode).toBe(200);
    const page = (await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}` })).body;
    expect(page).not.toContain('id="reuse-typed"');
    expect(page).not.toContain('José García');
    expect(pageConfig(page)).toMatchObject({ previousTyped: null });
    expect(page).toContain('id="method-draw" aria-pressed="true"');
  });

  it('gives the "Open the PDF" link a target class of its own (44 px in sign.css)', async () => {
    const l = await preparedLink();
    const page = (await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}` })).body;
    expect(page).toMatch(/<a class="pdf-link" href="[^"]+document\.pdf\?lng=en"/);
  });
});

describe('a contract per language (issue 16, item 3)', () => {
  const signedContractText = async (server: FastifyInstance, l: Awaited<ReturnType<typeof preparedLink>>) => {
    const token = l.token(StepRoutes.contract);
    const page = await server.inject({ method: 'GET', url: `/s/${token}?lng=es` });
    const r = await server.inject({
      method: 'POST',
      url: `/s/${token}/complete?lng=es`,
      payload: {
        lang: 'es',
        signerName: 'María López',
        method: 'type',
        typedSignature: 'María López',
        documentSha256: pageConfig(page.body).documentSha256,
      },
    });
    expect(r.statusCode).toBe(200);
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.contract]!.id);
    return { page: page.body, pages: await pdfText((await t.ctx.providers.storage.get(sub!.signed_storage_key!))!) };
  };

  it('a Spanish link reads and signs the Spanish contract; an English one the English contract', async () => {
    const l = await preparedLink();
    const es = await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}/document.pdf?lng=es` });
    expect((await pdfText(es.rawPayload))[0]).toContain('Acuerdo Financiero y Consentimiento del Paciente');
    const { page, pages } = await signedContractText(sign, l);
    expect(page).not.toContain('contract-lang-note');
    expect(pages[0]).toContain('Acuerdo Financiero y Consentimiento del Paciente');
    expect(pages.join(' ')).not.toContain('Patient Financial Agreement');
    expect(pages.at(-1)).toContain('Registro de auditoría');

    const other = await preparedLink();
    const en = await sign.inject({ method: 'GET', url: `/s/${other.token(StepRoutes.contract)}/document.pdf?lng=en` });
    expect((await pdfText(en.rawPayload))[0]).toContain('Patient Financial Agreement and Consent');
  });

  it('CONTRACT_PDF_PATH_ES is the Spanish contract when set', async () => {
    // Any readable PDF stands for the practice's own Spanish contract; the English sample makes it easy to tell apart.
    // The env is read when the link's documents are prepared (the contract is fixed then: decision 0168).
    const ctx = {
      ...t.ctx,
      config: { ...t.ctx.config, CONTRACT_PDF_PATH: SAMPLE_CONTRACT_ES, CONTRACT_PDF_PATH_ES: SAMPLE_CONTRACT },
    };
    const server = await buildSignServer(ctx);
    try {
      const { page, pages } = await signedContractText(server, await preparedLink({}, ctx));
      expect(page).not.toContain('contract-lang-note');
      expect(pages[0]).toContain('Patient Financial Agreement and Consent');
    } finally {
      await server.close();
    }
  });

  it('falls back to the English contract with a note in Spanish when the practice has no Spanish one', async () => {
    const ctx = { ...t.ctx, config: { ...t.ctx.config, CONTRACT_PDF_PATH: SAMPLE_CONTRACT } };
    const server = await buildSignServer(ctx);
    try {
      const { page, pages } = await signedContractText(server, await preparedLink({}, ctx));
      expect(page).toContain('Este contrato solo está disponible en inglés.');
      expect(pages[0]).toContain('Patient Financial Agreement and Consent');
      // The English reader of the same practice sees no note.
      const en = await server.inject({
        method: 'GET',
        url: `/s/${(await preparedLink({}, ctx)).token(StepRoutes.contract)}?lng=en`,
      });
      expect(en.body).not.toContain('contract-lang-note');
    } finally {
      await server.close();
    }
  });

  it('refuses at boot a contract path that is not a readable PDF', () => {
    expect(() => loadConfig({ CONTRACT_PDF_PATH_ES: '/nonexistent/contrato.pdf' })).toThrow(/CONTRACT_PDF_PATH_ES/);
    expect(() => loadConfig({ CONTRACT_PDF_PATH: fileURLToPath(import.meta.url) })).toThrow(/CONTRACT_PDF_PATH/);
    expect(loadConfig({ CONTRACT_PDF_PATH_ES: SAMPLE_CONTRACT_ES }).CONTRACT_PDF_PATH_ES).toBe(SAMPLE_CONTRACT_ES);
  });
});

describe('ID uploads', () => {
  it('keeps front and back, previews them, and completes with both', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.patientId);
    const early = await sign.inject({ method: 'POST', url: `/s/${token}/complete`, payload: {} });
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toContain('front and the back');
    const front = await upload(token, 'front', 'front.jpg', 'image/jpeg', fixture('id-front.jpg'));
    expect(front.statusCode).toBe(201);
    expect(front.json()).toMatchObject({ side: 'front', mime: 'image/jpeg', name: 'front.jpg' });
    const preview = await sign.inject({ method: 'GET', url: front.json().url });
    expect(preview.statusCode).toBe(200);
    expect(sha256Hex(preview.rawPayload)).toBe(sha256Hex(fixture('id-front.jpg')));
    expect((await sign.inject({ method: 'POST', url: `/s/${token}/complete`, payload: {} })).statusCode).toBe(422);
    const back = await upload(token, 'back', 'back.png', 'image/png', fixture('id-back.png'));
    expect(back.statusCode).toBe(201);
    // The page lists what is already uploaded (a reload keeps the previews).
    const page = await sign.inject({ method: 'GET', url: `/s/${token}` });
    expect(page.body).toContain('capture="environment"');
    // The guidance is shown once, by the app beside the frame; the frame starts with the upload controls (issue 16).
    expect(page.body).not.toContain('class="guidance"');
    expect(page.body).not.toMatch(/<li>Do not upload the same document twice\.<\/li>/);
    expect(page.body.indexOf('id="upload-form"')).toBeLessThan(page.body.indexOf('id="front-choose"'));
    const done = await sign.inject({ method: 'POST', url: `/s/${token}/complete`, payload: { lang: 'en' } });
    expect(done.statusCode).toBe(200);
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.patientId]!.id);
    expect(sub).toMatchObject({ status: 'completed', signature_method: 'upload', signer_name: 'María López' });
    const pages = await pdfText((await t.ctx.providers.storage.get(sub!.signed_storage_key!))!);
    expect(pages).toHaveLength(3);
    expect(pages[2]).toContain(sha256Hex(fixture('id-front.jpg')));
    expect(pages[2]).toContain(sha256Hex(fixture('id-back.png')));
    expect(await audits(l.linkId, 'document.file_uploaded')).toBe(2);
    expect(await audits(l.linkId, 'document.file_read')).toBe(1);
    // Completed: no more uploads and no more reads through the token.
    expect((await sign.inject({ method: 'GET', url: front.json().url })).statusCode).toBe(409);
    expect((await upload(token, 'front', 'x.png', 'image/png', fixture('id-back.png'))).statusCode).toBe(409);
  });

  it('converts an iPhone HEIC photo to JPEG', async () => {
    const l = await preparedLink();
    const r = await upload(
      l.token(StepRoutes.patientId),
      'front',
      'IMG_0001.HEIC',
      'image/heic',
      fixture('id-photo.heic'),
    );
    expect(r.statusCode).toBe(201);
    expect(r.json().mime).toBe('image/jpeg');
    const img = await sign.inject({ method: 'GET', url: r.json().url });
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect([...img.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const row = await t.ctx.db.query('select original_mime, content_sha256 from submission_file where id = $1', [
      r.json().id,
    ]);
    expect(row.rows[0]).toEqual({ original_mime: 'image/heic', content_sha256: sha256Hex(fixture('id-photo.heic')) });
  });

  it('accepts a PDF and refuses a password-protected or broken one', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.patientId);
    const contract = (await sign.inject({ method: 'GET', url: `/s/${l.token(StepRoutes.contract)}/document.pdf` }))
      .rawPayload;
    expect((await upload(token, 'back', 'scan.pdf', 'application/pdf', contract)).json()).toMatchObject({
      mime: 'application/pdf',
    });
    const broken = await upload(token, 'front', 'broken.pdf', 'application/pdf', Buffer.from('%PDF-1.7\nnot really'));
    expect(broken.statusCode).toBe(422);
    const locked = await upload(token, 'front', 'locked.pdf', 'application/pdf', fixture('id-locked.pdf'));
    expect(locked.statusCode).toBe(422);
    expect(locked.json().message).toContain('password-protected');
  });

  it('replaces a side uploaded again, answers the same file on the same side with its row, audits each change once', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.patientId);
    const counted = recordStatements(t.ctx.db);
    const first = await upload(token, 'front', 'a.jpg', 'image/jpeg', fixture('id-front.jpg')).finally(counted.stop);
    expect(first.statusCode).toBe(201);
    // The early read; then BEGIN, the lock, the insert with its audit row (it checks the link's files itself), COMMIT.
    expect(counted.statements, counted.statements.join('\n---\n')).toHaveLength(5);
    const again = await upload(token, 'front', 'a.jpg', 'image/jpeg', fixture('id-front.jpg'));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const stored = async () =>
      (
        await t.ctx.db.query<{ id: string; side: string; storage_key: string }>(
          'select id, side, storage_key from submission_file where link_id = $1',
          [l.linkId],
        )
      ).rows;
    const [old] = await stored();
    expect(old!.id).toBe(first.json().id);
    const second = await upload(token, 'front', 'b.png', 'image/png', fixture('id-back.png'));
    expect(second.statusCode).toBe(201);
    const rows = await stored();
    expect(rows).toEqual([expect.objectContaining({ id: second.json().id, side: 'front' })]);
    expect(await t.ctx.providers.storage.get(old!.storage_key)).toBeNull();
    expect(await t.ctx.providers.storage.get(rows[0]!.storage_key)).not.toBeNull();
    const audit = await t.ctx.db.query<{ details: Record<string, unknown> }>(
      `select details from audit_event where link_id = $1 and action = 'document.file_uploaded' order by id`,
      [l.linkId],
    );
    expect(audit.rows.map((r) => [r.details.fileId, r.details.replaced])).toEqual([
      [first.json().id, null],
      [second.json().id, first.json().id],
    ]);
    // A refused duplicate leaves nothing stored.
    const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.patientId]!.id);
    const files = path.join(t.ctx.config.dataDir, 'documents', 'submissions', sub!.id);
    expect((await upload(token, 'back', 'c.png', 'image/png', fixture('id-back.png'))).statusCode).toBe(409);
    if (t.ctx.providers.storage.driver === 'local') expect(fs.readdirSync(files)).toHaveLength(1);
  });

  it('of two uploads of one file at once, keeps one: one row, one audit row, one stored file', async () => {
    for (const sides of [['front', 'front'] as const, ['front', 'back'] as const]) {
      const l = await preparedLink();
      const token = l.token(StepRoutes.patientId);
      const answers = await Promise.all(
        sides.map((side) => upload(token, side, 'a.jpg', 'image/jpeg', fixture('id-front.jpg'))),
      );
      // The same side: both answer the one row; two sides: the second is the same document twice.
      if (sides[1] === 'front') {
        expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
        expect(answers[1]!.json()).toEqual(answers[0]!.json());
      } else expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const rows = await t.ctx.db.query('select 1 from submission_file where link_id = $1', [l.linkId]);
      expect(rows.rowCount).toBe(1);
      expect(await audits(l.linkId, 'document.file_uploaded')).toBe(1);
      const sub = await submissionForStep(t.ctx.db, l.byRoute[StepRoutes.patientId]!.id);
      const files = path.join(t.ctx.config.dataDir, 'documents', 'submissions', sub!.id);
      if (t.ctx.providers.storage.driver === 'local') expect(fs.readdirSync(files)).toHaveLength(1);
    }
  });

  it('refuses the same file twice, even on the other side or another ID step of the link', async () => {
    const l = await preparedLink({ source: 2 });
    const token = l.token(StepRoutes.patientId);
    expect((await upload(token, 'front', 'a.jpg', 'image/jpeg', fixture('id-front.jpg'))).statusCode).toBe(201);
    const dup = await upload(token, 'back', 'copy.jpg', 'image/jpeg', fixture('id-front.jpg'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'upload_duplicate' });
    expect(dup.json().message).toContain('Do not upload the same document twice');
    const payorDup = await upload(l.token(StepRoutes.payorId), 'front', 'a.jpg', 'image/jpeg', fixture('id-front.jpg'));
    expect(payorDup.statusCode).toBe(409);
    const es = await sign.inject({
      method: 'POST',
      url: `/s/${token}/files?side=back&lng=es`,
      ...(() => {
        const m = multipartFile('a.jpg', 'image/jpeg', fixture('id-front.jpg'));
        return { payload: m.body, headers: { 'content-type': m.contentType } };
      })(),
    });
    expect(es.json().message).toContain('No suba el mismo documento dos veces');
  });

  it('refuses files over UPLOAD_MAX_MB with a clear message, and types it cannot read', async () => {
    const l = await preparedLink();
    const token = l.token(StepRoutes.patientId);
    const big = Buffer.concat([fixture('id-front.jpg'), Buffer.alloc(1024 * 1024 + 10, 7)]);
    const r = await upload(token, 'front', 'big.jpg', 'image/jpeg', big);
    expect(r.statusCode).toBe(413);
    expect(r.json().message).toContain('The limit is 1 MB');
    const txt = await upload(token, 'front', 'id.jpg', 'image/jpeg', Buffer.from('just some text, not a photo'));
    expect(txt.statusCode).toBe(415);
    expect(txt.json().message).toContain('JPEG, PNG, HEIC');
    const gif = await upload(token, 'front', 'id.gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00'));
    expect(gif.statusCode).toBe(415);
    expect((await upload(token, 'left', 'a.jpg', 'image/jpeg', fixture('id-front.jpg'))).statusCode).toBe(400);
    const rows = await t.ctx.db.query('select 1 from submission_file where link_id = $1', [l.linkId]);
    expect(rows.rowCount).toBe(0);
  });

  it("never serves one link's file through another link's token, nor uploads to a signing document", async () => {
    const a = await preparedLink();
    const b = await preparedLink();
    const up = await upload(a.token(StepRoutes.patientId), 'front', 'a.jpg', 'image/jpeg', fixture('id-front.jpg'));
    const fileId = up.json().id as string;
    const other = await sign.inject({ method: 'GET', url: `/s/${b.token(StepRoutes.patientId)}/files/${fileId}` });
    expect(other.statusCode).toBe(404);
    // An ID document has no original to read; neither refusal is audited as a read.
    const idPdf = await sign.inject({ method: 'GET', url: `/s/${a.token(StepRoutes.patientId)}/document.pdf` });
    expect(idPdf.statusCode).toBe(404);
    for (const link of [a, b]) {
      expect(await audits(link.linkId, 'document.file_read')).toBe(0);
      expect(await audits(link.linkId, 'document.original_read')).toBe(0);
    }
    const own = await sign.inject({ method: 'GET', url: `/s/${a.token(StepRoutes.patientId)}/files/${fileId}` });
    expect(own.statusCode).toBe(200);
    const read = await t.ctx.db.query('select details from audit_event where link_id = $1 and action = $2', [
      a.linkId,
      'document.file_read',
    ]);
    expect(read.rows.map((r) => r.details)).toEqual([{ submissionId: expect.any(String), fileId, side: 'front' }]);
    expect(
      (await sign.inject({ method: 'GET', url: `/s/${a.token(StepRoutes.patientId)}/files/not-a-uuid` })).statusCode,
    ).toBe(404);
    const invoice = await upload(a.token(StepRoutes.invoice), 'front', 'b.png', 'image/png', fixture('id-back.png'));
    expect(invoice.statusCode).toBe(400);
  });
});
