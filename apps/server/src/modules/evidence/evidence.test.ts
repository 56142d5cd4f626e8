import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementText, CARD_ON_FILE_AGREEMENT_VERSION, cardOnFileAgreement, StepRoutes } from '@paylink/shared';
import { createHash } from 'node:crypto';
import { staffToken } from '../../seed/seed-staff.js';
import {
  confirm,
  createLinkAtPaymentStep,
  payWithSandbox,
  requestSessionToken,
  startPaymentTestEnv,
  type PaymentTestEnv,
  type TestLink,
} from '../../../test/support/payment-fixtures.js';
import { insertPlan } from '../plans/plans-queries.js';
import { buildSignServer } from '../signing/sign-server.js';
import { prepareStepDocuments } from '../signing/prepare-step-documents.js';
import { fixture, multipartFile, pdfText } from '../../../test/support/signing-fixtures.js';
import { inOrder, pdfAccessibility } from '../../../test/support/pdf-accessibility.js';

/**
 * The dispute evidence pack of a paid test link: signed through the real signing service, paid through the sandbox
 * gateway over HTTP with 3-D Secure, then rendered to PNG with poppler's pdftoppm (as a reviewer would see it).
 */
const run = promisify(execFile);
let env: PaymentTestEnv;
let sign: FastifyInstance;
let admin: Record<string, string>;
let linkId: string;
let txnId: string;
let pdf: Buffer;

/**
 * Card numbers as they would be printed: a run of 13–19 digits on its own, or groups of four separated by spaces or
 * dashes, that passes the Luhn check and starts like a card (3–6). Whole runs only: sliding windows over dates, times
 * and ids would find Luhn-valid digits by chance (1 in 10) and make the test flaky.
 */
function cardNumbersIn(text: string): string[] {
  const found: string[] = [];
  const runs = /(?<![\w-])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2,3}(?:[ -]\d{1,3})?)(?![\w-])/g;
  for (const m of text.matchAll(runs)) {
    const d = m[0].replace(/\D/g, '');
    if (d.length < 13 || d.length > 19 || !/^[3-6]/.test(d)) continue;
    let sum = 0;
    for (let k = 0; k < d.length; k++) {
      let n = Number(d[d.length - 1 - k]);
      if (k % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
      sum += n;
    }
    if (sum % 10 === 0) found.push(d);
  }
  return found;
}

beforeAll(async () => {
  env = await startPaymentTestEnv({ SIGN_ORIGIN: 'https://sign.example.test' });
  sign = await buildSignServer(env.ctx);
  admin = {
    authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'billing@example.com', role: 'billing' })}`,
  };
  const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 750 });
  linkId = link.linkId;
  await env.ctx.db.transaction((tx) => prepareStepDocuments(tx, env.ctx, { linkId }));
  const steps = await env.ctx.db.query<{ route_path: string; document_url: string | null }>(
    'select route_path, document_url from link_step where link_id = $1',
    [linkId],
  );
  const token = (route: string) => steps.rows.find((s) => s.route_path === route)!.document_url!.split('/s/')[1]!;
  for (const route of [StepRoutes.invoice, StepRoutes.contract]) {
    const page = await sign.inject({ method: 'GET', url: `/s/${token(route)}?lng=en` });
    const cfg = JSON.parse(/<script type="application\/json" id="sign-config">(.*?)<\/script>/s.exec(page.body)![1]!);
    const r = await sign.inject({
      method: 'POST',
      url: `/s/${token(route)}/complete`,
      payload: {
        lang: 'en',
        signerName: 'Ana García',
        method: 'type',
        typedSignature: 'Ana García',
        documentSha256: cfg.documentSha256,
      },
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
  }
  for (const [side, name, type] of [
    ['front', 'id-front.jpg', 'image/jpeg'],
    ['back', 'id-back.png', 'image/png'],
  ] as const) {
    const { body, contentType } = multipartFile(name, type, fixture(name));
    const r = await sign.inject({
      method: 'POST',
      url: `/s/${token(StepRoutes.patientId)}/files?side=${side}`,
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(r.statusCode, r.body).toBeLessThan(300);
  }
  const t = await requestSessionToken(env, link);
  const { pay } = await payWithSandbox(env.gatewayOrigin, {
    sessionToken: t.body,
    card: '4000000000000077', // the 3-D Secure challenge card
    amountCents: link.amountCents,
    challenge: 'authenticate',
  });
  expect(pay?.ssl_result).toBe('0');
  txnId = pay!.ssl_txn_id!;
  expect((await confirm(env, link, txnId)).statusCode).toBe(200);
  // Billing looks at the link first, as they do before a dispute: those reads are not evidence (issue 29, item 1).
  for (const part of ['detail', 'messages', 'refunds', 'documents']) {
    expect((await env.app.inject({ url: `/api/admin/links/${linkId}/${part}`, headers: admin })).statusCode).toBe(200);
  }

  const r = await env.app.inject({ method: 'GET', url: `/api/admin/links/${linkId}/evidence.pdf`, headers: admin });
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toBe('application/pdf');
  pdf = r.rawPayload;
});
afterAll(async () => {
  await sign?.close();
  await env?.close();
});

describe('GET /api/admin/links/:id/evidence.pdf', () => {
  it('has the payment with 3-D Secure result, ECI and liability shift, the terms acceptance, IDs and hashes', async () => {
    const pages = await pdfText(pdf);
    const first = pages[0]!;
    expect(first).toContain('Dispute evidence');
    expect(first).toContain('$750.00');
    expect(first).toContain(txnId);
    expect(first).toMatch(/Visa ending in 0077/);
    expect(first).toContain('Y (authenticated)');
    expect(first).toContain('5 (fully authenticated)');
    expect(first).toMatch(/Liability shift\s+Yes/);
    expect(first).toContain('Y: street and 5-digit ZIP match');
    expect(first).toContain('M: match');
    const all = pages.join('\n');
    expect(all).toMatch(/Patient contract: signed by Ana Garc.a on .* from IP/);
    expect(all).toContain('Patient identification, front: id-front.jpg');
    const stored = await env.ctx.db.query<{ signed_sha256: string; kind: string }>(
      `select kind, signed_sha256 from submission where link_id = $1 and status = 'completed' and signed_sha256 is not null`,
      [linkId],
    );
    for (const s of stored.rows.filter((x) => x.kind === 'contract' || x.kind === 'invoice')) {
      expect(all).toContain(s.signed_sha256);
    }
    expect(all).toContain('Audit timeline');
    expect(all).toContain('payment.approved');
    for (const read of ['admin.link_viewed', 'link.messages_read', 'admin.refunds_viewed', 'documents.listed']) {
      expect(all).not.toContain(read);
    }
    // The signed contract itself, with its signature page, is attached.
    expect(all).toContain('Attached: Patient contract');
    expect(all).toMatch(/Signature page/i);
  });

  it('never contains a card number (text of every page scanned)', async () => {
    const text = (await pdfText(pdf)).join('\n');
    expect(cardNumbersIn(text)).toEqual([]);
    expect(text).not.toContain('4000000000000077');
    expect(pdf.toString('latin1')).not.toContain('4000000000000077');
  });

  it('is a tagged PDF in its language: headings, the timeline as a table, the signed copies with their own tags', async () => {
    const a = await pdfAccessibility(pdf);
    expect(a).toMatchObject({ tagged: true, lang: 'en-US', displayDocTitle: true });
    expect(a.types[0]).toBe('Document');
    expect(a.types).toEqual(expect.arrayContaining(['H1', 'H2', 'H3', 'Table', 'THead', 'TH', 'TD']));
    // The audit timeline is a table with column headers; each event is a row.
    expect(
      inOrder(a.structure, ['"Audit timeline"', 'Table', 'TH:', '"Time (UTC)"', '"Event"', 'TD', '"payment.approved"']),
    ).toBe(true);
    // The attached signed contract brings its structure: its own headings, its signature and audit pages.
    expect(
      inOrder(a.structure, [
        '"Attached: Patient contract',
        /H1 \(block\)\n\s+"Patient Financial Agreement and Consent"/,
        /H1 \(block\)\n\s+"Signature"/,
        /H1 \(block\)\n\s+"Audit trail"/,
      ]),
    ).toBe(true);
    // The running footer is an artifact, not content.
    expect(a.structure).not.toContain('Page 1 of');
    expect(inOrder(a.text, ['Dispute evidence', 'Payment', 'Audit timeline', 'Attached: Patient contract'])).toBe(true);
    const es = await env.app.inject({
      method: 'GET',
      url: `/api/admin/links/${linkId}/evidence.pdf?lang=es`,
      headers: admin,
    });
    const b = await pdfAccessibility(es.rawPayload);
    expect(b).toMatchObject({ tagged: true, lang: 'es-US' });
    expect(b.structure).toMatch(/H1 \(block\)\n\s+"Pruebas para la disputa"/);
    expect(inOrder(b.structure, ['"Historial de auditoría"', 'Table', '"Hora (UTC)"', '"Evento"'])).toBe(true);
  });

  it('renders to PNG (pdftoppm): the first page and the signature page are real images', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evidence-'));
    const file = path.join(dir, 'evidence.pdf');
    fs.writeFileSync(file, pdf);
    try {
      await run('pdftoppm', ['-v']);
    } catch {
      throw new Error('pdftoppm is missing: apt-get install -y poppler-utils');
    }
    await run('pdftoppm', ['-png', '-r', '60', file, path.join(dir, 'page')]);
    const pngs = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort();
    const pages = await pdfText(pdf);
    expect(pngs.length).toBe(pages.length);
    for (const p of pngs) {
      const png = fs.readFileSync(path.join(dir, p));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(2000);
    }
    if (process.env.EVIDENCE_PNG_DIR) {
      for (const p of pngs) fs.copyFileSync(path.join(dir, p), path.join(process.env.EVIDENCE_PNG_DIR, p));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is for billing and admins, Spanish on request, 409 for an unpaid link; the download is audited', async () => {
    const coord = `Bearer ${await staffToken(env.ctx.db, { email: 'coord@example.com', role: 'coordinator' })}`;
    const r = await env.app.inject({
      method: 'GET',
      url: `/api/admin/links/${linkId}/evidence.pdf`,
      headers: { authorization: coord },
    });
    expect(r.statusCode).toBe(403);
    const es = await env.app.inject({
      method: 'GET',
      url: `/api/admin/links/${linkId}/evidence.pdf?lang=es`,
      headers: admin,
    });
    expect((await pdfText(es.rawPayload))[0]).toContain('Pruebas para la disputa');
    const unpaid = await createLinkAtPaymentStep(env.ctx);
    const u = await env.app.inject({
      method: 'GET',
      url: `/api/admin/links/${unpaid.linkId}/evidence.pdf`,
      headers: admin,
    });
    expect(u.statusCode).toBe(409);
    const a = await env.ctx.db.query('select 1 from audit_event where link_id = $1 and action = $2', [
      linkId,
      'evidence.downloaded',
    ]);
    expect(a.rowCount).toBeGreaterThanOrEqual(2);
  });
});

describe('who paid, in the evidence pack (issue 29, item 4)', () => {
  it('a patient’s payment names the patient as who paid, never as a payor', async () => {
    const first = (await pdfText(pdf))[0]!.replace(/\s+/g, ' ');
    expect(first).toMatch(/Paid by The patient/);
    expect(first).toMatch(/Name on the card Ana Garcia/);
    // Only the standing words on the terms ("The patient (or payor) signed …") may name a payor.
    expect(first.replaceAll('The patient (or payor)', '')).not.toMatch(/payor/i);
  });

  it('a payor’s payment names the payor as who paid', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 600, source: 2 });
    const t = await requestSessionToken(env, link);
    expect(t.statusCode, t.body).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    const paid = await confirm(env, link, pay!.ssl_txn_id!, {
      payorFullName: 'Paula Payor',
      payorEmail: 'p@example.com',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const r = await env.app.inject({ url: `/api/admin/links/${link.linkId}/evidence.pdf`, headers: admin });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    const first = (await pdfText(r.rawPayload))[0]!.replace(/\s+/g, ' ');
    expect(first).toMatch(/Paid by Paula Payor, the payor/);
    const es = await env.app.inject({ url: `/api/admin/links/${link.linkId}/evidence.pdf?lang=es`, headers: admin });
    expect((await pdfText(es.rawPayload))[0]!.replace(/\s+/g, ' ')).toMatch(/Pagado por Paula Payor, el pagador/);
  });
});

describe('the evidence pack of a payment plan link', () => {
  it('has the card-on-file agreement’s words, version, time, IP and browser, and the instalments', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    await insertPlan(env.ctx.db, {
      linkId: link.linkId,
      totalCents: 200_000,
      shape: { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' },
      createdBy: null,
    });
    const ua = 'Mozilla/5.0 (EvidenceTest; Android 14) Mobile Safari/537.36';
    const accepted = await env.app.inject({
      method: 'POST',
      url: `/api/plans/${link.linkId}/agreement`,
      headers: { ...link.headers, 'user-agent': ua },
      payload: { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const t = await requestSessionToken(env, link);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
    // One instalment charged, as the scheduler records it.
    await env.ctx.db.query(
      `update plan_installment set status = 'paid', paid_at = now(), gateway_txn_id = 'INST-TXN-1'
       where n = 1 and plan_id = (select id from payment_plan where link_id = $1)`,
      [link.linkId],
    );
    const row = (
      await env.ctx.db.query<{ ip: string; accepted_at: Date }>(
        'select ip, accepted_at from card_agreement where link_id = $1',
        [link.linkId],
      )
    ).rows[0]!;
    expect(row.ip).toBeTruthy();

    const r = await env.app.inject({
      method: 'GET',
      url: `/api/admin/links/${link.linkId}/evidence.pdf`,
      headers: admin,
    });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    const text = (await pdfText(r.rawPayload)).join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Card-on-file agreement');
    expect(text).toMatch(/I authorize .+ to keep Visa ending in 0002 on file with its card processor/);
    expect(text).toContain('January 31, 2098: $500.00');
    expect(text).toContain('Cancelling the charges does not cancel what I owe under my contract.');
    expect(text).toMatch(new RegExp(`Version of the words ${CARD_ON_FILE_AGREEMENT_VERSION}`));
    expect(text).toContain(`Accepted on ${new Date(row.accepted_at).toISOString().replace('T', ' ').slice(0, 19)} UTC`);
    expect(text).toContain(`IP address ${row.ip}`);
    expect(text).toContain(ua);
    // The schedule is a table (issue 29, item 9): a row per instalment, read across.
    expect(text).toContain('# Due Amount Status Transaction ID');
    expect(text).toContain('1 2098-01-31 $500.00 USD paid INST-TXN-1');
    expect(text).toContain('3 2098-03-31 $500.00 USD scheduled —');
    expect(
      inOrder((await pdfAccessibility(r.rawPayload)).structure, ['"Installments"', 'Table', 'THead', '"Due"', 'TBody']),
    ).toBe(true);
    expect(cardNumbersIn(text)).toEqual([]);
  });
});

describe('an acceptance of an earlier version of the agreement (issue 41, item 9)', () => {
  it('is quoted in the words of its own version: "I authorise" under 2026-11-27, kept or rebuilt', async () => {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    await insertPlan(env.ctx.db, {
      linkId: link.linkId,
      totalCents: 200_000,
      shape: { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' },
      createdBy: null,
    });
    // An API client's acceptance: no words kept, so the record rebuilds them.
    const accepted = await env.app.inject({
      method: 'POST',
      url: `/api/plans/${link.linkId}/agreement`,
      headers: link.headers,
      payload: { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const t = await requestSessionToken(env, link);
    const { pay } = await payWithSandbox(env.gatewayOrigin, {
      sessionToken: t.body,
      card: '4000000000000002',
      amountCents: link.amountCents,
    });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
    // As if accepted before the words said "authorize": the version of that day, and no words kept.
    await env.ctx.db.query(`update card_agreement set text_version = '2026-11-27', text = null where link_id = $1`, [
      link.linkId,
    ]);
    const read = async () => {
      const r = await env.app.inject({ url: `/api/admin/links/${link.linkId}/evidence.pdf`, headers: admin });
      expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
      return (await pdfText(r.rawPayload)).join('\n').replace(/\s+/g, ' ');
    };
    const rebuilt = await read();
    expect(rebuilt).toMatch(/I authorise .+ to keep Visa ending in 0002 on file with its card processor/);
    expect(rebuilt).not.toContain('I authorize');
    expect(rebuilt).toContain('Version of the words 2026-11-27');

    // Words kept with an acceptance are quoted as they are, whatever the words read now.
    const kept = 'Card-on-file agreement\n\nI authorise Old Words Clinic to keep Visa ending in 0002 on file.';
    await env.ctx.db.query(`update card_agreement set text = $2 where link_id = $1`, [link.linkId, kept]);
    const quoted = await read();
    expect(quoted).toContain('I authorise Old Words Clinic to keep Visa ending in 0002 on file.');
    expect(quoted).not.toContain('I authorize');
  });
});

/** A number as a person would write a card number: 7+ digits in a row, or 13+ in groups ("4111 1111 1111 1111"). */
const DIGIT_RUN = /(?<![\p{L}\p{N}_-])(?:\d{7,}|\d{1,6}(?:[ -]\d{1,6}){3,})(?![\p{L}\p{N}_-])/u;
const PLANTED = '4111 1111 1111 1111';

describe('the card named in the card-on-file agreement (issue 41, items 3 and 6)', () => {
  /** The agreement's words as a payment page builds them for `card`, from GET /api/plans. */
  async function pageWords(link: TestLink, card: string): Promise<string> {
    const plan = (await env.app.inject({ url: `/api/plans/${link.linkId}`, headers: link.headers })).json();
    return agreementText(
      cardOnFileAgreement.en({
        practice: plan.practice.name,
        practicePhone: plan.practice.phone,
        practiceEmail: plan.practice.email,
        schedule: plan.scheduleLines.en,
        noticeDays: plan.noticeDays,
        card,
      }),
    );
  }
  const accept = (link: TestLink, ua: string, payload: Record<string, unknown> = {}) =>
    env.app.inject({
      method: 'POST',
      url: `/api/plans/${link.linkId}/agreement`,
      headers: { ...link.headers, 'user-agent': ua },
      payload: { version: CARD_ON_FILE_AGREEMENT_VERSION, accepted: true, ...payload },
    });
  async function planLink(): Promise<TestLink> {
    const link = await createLinkAtPaymentStep(env.ctx, { amountDollars: 500 });
    await insertPlan(env.ctx.db, {
      linkId: link.linkId,
      totalCents: 200_000,
      shape: { kind: 'installments', count: 3, every: 'month', firstDueOn: '2098-01-31' },
      createdBy: null,
    });
    return link;
  }
  async function payDeposit(link: TestLink, card: string) {
    const t = await requestSessionToken(env, link);
    expect(t.statusCode, t.body).toBe(200);
    const { pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken: t.body, card, amountCents: 50_000 });
    expect((await confirm(env, link, pay!.ssl_txn_id!)).statusCode).toBe(200);
  }
  const evidence = async (link: TestLink, lang = 'en') => {
    const r = await env.app.inject({
      url: `/api/admin/links/${link.linkId}/evidence.pdf?lang=${lang}`,
      headers: admin,
    });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    return (await pdfText(r.rawPayload)).join('\n').replace(/\s+/g, ' ');
  };
  const agreementRows = async (linkId: string) =>
    (
      await env.ctx.db.query<{ text: string; text_sha256: string; user_agent: string; accepted_at: Date }>(
        'select text, text_sha256, user_agent, accepted_at from card_agreement where link_id = $1 order by id',
        [linkId],
      )
    ).rows;

  it('a planted card number is refused; the words kept, the receipt and the evidence name the card paid with', async () => {
    const link = await planLink();
    const planted = await accept(link, 'Mozilla/5.0', {
      lang: 'en',
      text: await pageWords(link, `${PLANTED} ending in 1111`),
      cardLabel: `${PLANTED} ending in 1111`,
    });
    expect(planted.statusCode).toBe(400);
    expect(planted.json().message).toMatch(/brand and last four/);

    // A page naming a card the patient then does not pay with, from a browser whose user agent carries a number.
    const ua = `Mozilla/5.0 (Planted ${PLANTED}; 4111111111111111) Safari/537.36`;
    const other = await accept(link, ua, {
      lang: 'en',
      text: await pageWords(link, 'Mastercard ending in 4444'),
      cardLabel: 'Mastercard ending in 4444',
    });
    expect(other.statusCode, other.body).toBe(201);
    await payDeposit(link, '4000000000000002');

    const [row] = await agreementRows(link.linkId);
    expect(row!.text).toMatch(/to keep Visa ending in 0002 on file/);
    expect(row!.text).not.toContain('Mastercard');
    expect(row!.text_sha256).toBe(createHash('sha256').update(row!.text).digest('hex'));
    for (const stored of [row!.text, row!.user_agent]) expect(stored).not.toMatch(DIGIT_RUN);
    const details = await env.ctx.db.query<{ details: unknown }>('select details from audit_event where link_id = $1', [
      link.linkId,
    ]);
    for (const d of details.rows) expect(JSON.stringify(d.details)).not.toMatch(DIGIT_RUN);

    const mail = (
      await env.ctx.db.query<{ body_text: string }>(
        `select body_text from outbox_message where link_id = $1 and kind = 'receipt'`,
        [link.linkId],
      )
    ).rows[0]!.body_text;
    expect(mail).toMatch(/to keep Visa ending in 0002 on file/);
    expect(mail).not.toContain('Mastercard');
    expect(mail).not.toMatch(DIGIT_RUN);

    const text = await evidence(link);
    expect(text).toMatch(/to keep Visa ending in 0002 on file/);
    expect(text).not.toContain('Mastercard ending in 4444');
    expect(text).not.toContain(PLANTED);
    expect(text).not.toContain('4111111111111111');
    expect(cardNumbersIn(text)).toEqual([]);
  });

  it('after a card update the evidence quotes both acceptances, each with its card, time and context', async () => {
    const link = await planLink();
    expect((await accept(link, 'DepositBrowser/1.0', {})).statusCode).toBe(201);
    await payDeposit(link, '4000000000000341');
    // The card update: the agreement again, then a verified card (nothing charged).
    const again = await accept(link, 'UpdateBrowser/2.0', {
      lang: 'en',
      text: await pageWords(link, 'Visa ending in 0002'),
      cardLabel: 'Visa ending in 0002',
    });
    expect(again.statusCode, again.body).toBe(201);
    const session = await env.app.inject({
      method: 'POST',
      url: `/api/plans/${link.linkId}/card/session`,
      headers: link.headers,
    });
    expect(session.statusCode, session.body).toBe(201);
    const { sessionToken, updateId } = session.json() as { sessionToken: string; updateId: string };
    const { pay } = await payWithSandbox(env.gatewayOrigin, { sessionToken, card: '4000000000000002', amountCents: 0 });
    const stored = await env.app.inject({
      method: 'POST',
      url: `/api/plans/${link.linkId}/card`,
      headers: link.headers,
      payload: { updateId, transactionId: pay!.ssl_txn_id },
    });
    expect(stored.statusCode, stored.body).toBe(200);

    const [deposit, update] = await agreementRows(link.linkId);
    const at = (d: Date) => `${new Date(d).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
    const text = await evidence(link);
    expect(text).toContain('The patient accepted the agreement 2 times');
    const first = text.indexOf('Acceptance 1 of 2: before the deposit, for the card the deposit stored');
    const second = text.indexOf('Acceptance 2 of 2: for a new card (card update)');
    expect(first).toBeGreaterThan(-1);
    expect(second).toBeGreaterThan(first);
    const one = text.slice(first, second);
    const two = text.slice(second, text.indexOf('Instalments', second));
    expect(one).toMatch(/to keep Visa ending in 0341 on file/);
    expect(one).toContain(`Accepted on ${at(deposit!.accepted_at)}`);
    expect(one).toContain('DepositBrowser/1.0');
    expect(one).toContain('Card stored under it Visa ending in 0341 (before the deposit');
    expect(two).toMatch(/to keep Visa ending in 0002 on file/);
    expect(two).toContain(`Accepted on ${at(update!.accepted_at)}`);
    expect(two).toContain('UpdateBrowser/2.0');
    expect(two).toContain('Card stored under it Visa ending in 0002 (for a new card (card update))');
    expect(await evidence(link, 'es')).toContain('Aceptación 1 de 2: antes del depósito');
  });
});
