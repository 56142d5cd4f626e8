import { cardBrandName, formatUsd, PaymentSource } from '@paylink/shared';
import { PDFDocument } from 'pdf-lib';
import type { AppContext } from '../../context.js';
import { writeAudit, type Actor, STAFF_READ_ACTIONS } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { GatewayTransaction } from '../../providers/gateway/types.js';
import { findLink, type PaymentRow } from '../links/index.js';
import { loadPracticeInfo } from '../../messages/index.js';
import { planRecord } from '../plans/index.js';
import { linkMoney } from '../refunds/index.js';
import { ownBytes, PdfWriter, listLinkSubmissions, listSubmissionFiles, sha256Hex } from '../signing/index.js';
import { EVIDENCE_TEXTS, type EvidenceLang } from './evidence-texts.js';

/** Signed documents attached in full, in this order. */
const ATTACH_ORDER = ['contract', 'invoice', 'payment_authorization'];

const utc = (d: Date | string) => `${new Date(d).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

interface AuditRow {
  at: Date;
  actor_type: string;
  actor_id: string | null;
  action: string;
  ip: string | null;
  details: Record<string, unknown>;
}

/** Audit details worth a line in the timeline (ids and money, never card data: none is ever stored). */
function detailSummary(d: Record<string, unknown>): string {
  const keys = ['routePath', 'kind', 'amountCents', 'transactionId', 'reason', 'refundState', 'method', 'channel'];
  return keys
    .filter((k) => d[k] !== undefined && d[k] !== null && typeof d[k] !== 'object')
    .map((k) => (k === 'amountCents' ? `amount ${formatUsd(Number(d[k]), 'en-US')}` : `${k} ${String(d[k])}`))
    .join(' · ');
}

/**
 * The dispute evidence pack of a paid link: one PDF a practice can upload to the card network. Built from our records
 * (payment, signed documents, ID files, audit) and the gateway's own report of the sale (AVS, CVV2, 3-D Secure). Card
 * numbers are never stored anywhere, so none can appear; only brand + last 4.
 */
export async function buildEvidencePack(
  ctx: Pick<AppContext, 'db' | 'providers' | 'config'>,
  opts: { linkId: string; actor: Actor; lang?: EvidenceLang },
): Promise<{ fileName: string; bytes: Uint8Array; documents: { name: string; sha256: string }[] }> {
  const { db } = ctx;
  const lang = opts.lang ?? 'en';
  const t = EVIDENCE_TEXTS[lang];
  const link = await findLink(db, opts.linkId);
  if (!link) throw notFound('No link with this id.');
  const payment = (await db.query<PaymentRow>('select * from payment where link_id = $1', [link.id])).rows[0];
  if (!payment || payment.status !== 'approved' || !payment.transaction_id) {
    throw new AppError('not_paid', 'This link has no approved payment: there is nothing to dispute.');
  }

  let txn: GatewayTransaction | null = null;
  let gatewayDown = false;
  try {
    txn = await ctx.providers.gateway.queryTransaction(payment.transaction_id);
  } catch {
    gatewayDown = true;
  }
  const practice = await loadPracticeInfo(db, { name: ctx.config.PRACTICE_NAME });
  // The money section reads the staff read model of money movements (decision 0243): deposit and instalments.
  const money = await linkMoney(db, link.id);
  const plan = await planRecord(db, link.id, { loaded: practice });
  const allSubmissions = await listLinkSubmissions(db, link.id);
  const submissions = allSubmissions.filter((s) => s.status === 'completed');
  const audit = (
    await db.query<AuditRow>(
      // Staff reads are access records, not evidence of what happened on the link (issue 29, item 1).
      `select at, actor_type, actor_id, action, ip, details from audit_event
        where link_id = $1 and not (actor_type = 'staff' and action = any($2::text[])) order by at, id`,
      [link.id, STAFF_READ_ACTIONS],
    )
  ).rows;

  const doc = await PDFDocument.create();
  doc.setTitle(`${t.title} – ${link.id}`);
  doc.setProducer('Paylink');
  doc.setCreationDate(new Date());
  const w = await PdfWriter.create(doc, { lang });

  w.heading(t.title, 1, { size: 20, gap: 4 });
  w.text(t.subtitle(practice.name), { size: 10, gap: 10, color: 0.3 });
  w.row(t.generated, utc(new Date()));
  w.row(t.link, link.id);
  w.row(t.patient, `${link.first_name} ${link.last_name}`);
  // Who paid is the payment's source, not whether a name was typed on the card form: a patient's payment keeps the
  // name on their card in payor_full_name too (issue 29, item 4; decision 0219).
  const byPayor = payment.payment_source_id === PaymentSource.Payor;
  w.row(t.paidBy, byPayor ? t.paidByPayor(payment.payor_full_name ?? '') : t.paidByPatient);
  if (payment.payor_full_name) w.row(t.nameOnCard, payment.payor_full_name);
  w.rule();

  // Payment
  w.heading(t.payment, 2, { size: 14, gap: 6 });
  const brand = cardBrandName(payment.card_brand) || t.card;
  w.row(t.amount, `${formatUsd(payment.amount_cents, 'en-US')} USD`);
  w.row(t.date, utc(payment.paid_at!));
  w.row(t.card, payment.card_last4 ? t.ending(brand, payment.card_last4) : brand);
  w.row(t.approval, payment.approval_code || '—');
  w.row(t.txn, payment.transaction_id);
  if (gatewayDown) w.text(t.gatewayDown, { size: 10, color: 0.4 });
  const avs = txn?.avsResponse ? (t.avsCodes[txn.avsResponse] ?? txn.avsResponse) : t.notReported;
  const cvv = txn?.cvv2Response ? (t.cvvCodes[txn.cvv2Response] ?? txn.cvv2Response) : t.notReported;
  w.row(t.avs, avs);
  w.row(t.cvv, cvv);
  w.space(4);
  w.heading(t.threeDS, 3, { size: 12, gap: 4 });
  const ts = txn?.threeDSTransStatus ?? null;
  const eci = txn?.eciInd ?? null;
  w.row(t.transStatus, ts ? (t.transStatuses[ts] ?? ts) : t.notReported);
  w.row(t.eci, eci ? (t.ecis[eci] ?? eci) : t.notReported);
  const shift =
    ts === 'Y' || eci === '5' ? t.liabilityYes : ts === 'A' || eci === '6' ? t.liabilityAttempt : t.liabilityNo;
  w.row(t.liability, shift);
  w.space(4);
  w.heading(t.refunds, 3, { size: 12, gap: 4 });
  const done = money.reversals.filter((r) => r.status === 'succeeded');
  if (!done.length) w.text(t.noRefunds, { size: 10 });
  for (const r of done) {
    const line = t.refundLine(
      t.kinds[r.kind] ?? r.kind,
      formatUsd(r.amount_cents, 'en-US'),
      utc(r.completed_at!),
      r.gateway_transaction_id ?? '—',
    );
    w.text(r.n === null ? line : `${line} · ${t.ofInstallment(r.n, r.installment_count ?? r.n)}`, { size: 10 });
  }
  if (money.sales.some((s) => s.kind === 'installment')) {
    w.space(4);
    w.row(
      t.moneyTotals,
      t.moneyTotalsLine(
        formatUsd(money.paidCents, 'en-US'),
        formatUsd(money.refundedCents, 'en-US'),
        formatUsd(money.netCents, 'en-US'),
      ),
    );
  }
  w.rule();

  // Acceptance of the non-refundable terms
  w.heading(t.terms, 2, { size: 14, gap: 6 });
  w.text(t.termsText, { size: 10, gap: 6 });
  for (const s of submissions.filter((x) => ['contract', 'invoice', 'payment_authorization'].includes(x.kind))) {
    w.text(t.signedAt(t.docNames[s.kind] ?? s.kind, utc(s.completed_at!), s.ip ?? '—', s.signer_name ?? '—'), {
      size: 10,
    });
  }
  const payEvent =
    [...audit]
      .reverse()
      .find((e) => e.action === 'payment.session_requested' && e.at <= (payment.paid_at ?? new Date())) ??
    audit.find((e) => e.action === 'payment.approved');
  if (payEvent) w.text(t.payAt(utc(payEvent.at), payEvent.ip ?? '—'), { size: 10 });
  w.rule();

  // A payment plan: the words the patient accepted before the card was kept, and what was charged under them
  if (plan) {
    w.heading(t.cardOnFile, 2, { size: 14, gap: 6 });
    // Every accepted version, oldest first, each with the card stored under it (issue 41, item 6).
    const all = plan.agreements;
    if (all.length > 1) w.text(t.acceptances(all.length), { size: 10, gap: 6 });
    all.forEach((a, k) => {
      const intro = a.card?.storedBy === 'card_update' ? t.cardUpdateText(a.language) : t.cardOnFileText(a.language);
      if (all.length > 1) {
        w.heading(t.acceptance(k + 1, all.length, t.contexts[a.card?.storedBy ?? 'none']!), 3, { size: 12, gap: 4 });
        w.text(intro, { size: 10, gap: 6 });
        w.text(a.title, { size: 11, font: 'bold', gap: 3 });
      } else {
        w.text(intro, { size: 10, gap: 6 });
        w.heading(a.title, 3, { size: 11, gap: 3 });
      }
      for (const p of a.paragraphs) w.text(p, { size: 10, gap: 3, color: 0.15 });
      w.space(4);
      w.row(t.agreementVersion, a.version);
      w.row(t.acceptedAt, utc(a.acceptedAt));
      w.row(t.acceptedIp, a.ip ?? '—');
      w.row(t.userAgent, a.userAgent ?? '—');
      const storedBrand = cardBrandName(a.card?.brand) || t.card;
      w.row(
        t.storedCard,
        a.card?.last4 ? `${t.ending(storedBrand, a.card.last4)} (${t.contexts[a.card.storedBy]})` : t.noStoredCard,
      );
      w.space(6);
    });
    if (!all.length) w.text(t.noAgreement, { size: 10 });
    w.space(4);
    w.heading(t.installments, 3, { size: 12, gap: 4 });
    w.table(
      t.installmentColumns,
      plan.installments.map((i) => [
        String(i.n),
        i.dueOn,
        `${formatUsd(i.amountCents, 'en-US')} USD`,
        t.installmentStatuses[i.status] ?? i.status,
        i.gatewayTxnId ?? '—',
      ]),
      { widths: [0.06, 0.16, 0.18, 0.2, 0.4], size: 10 },
    );
    w.rule();
  }

  // Documents: signed PDFs (attached below) and ID files, each with its SHA-256
  const attachments: { name: string; bytes: Uint8Array }[] = [];
  const hashes: { name: string; sha256: string }[] = [];
  w.heading(t.documents, 2, { size: 14, gap: 6 });
  const sorted = [...submissions].sort((a, b) => ATTACH_ORDER.indexOf(a.kind) - ATTACH_ORDER.indexOf(b.kind));
  for (const s of sorted.filter((x) => ATTACH_ORDER.includes(x.kind))) {
    const name = t.docNames[s.kind] ?? s.kind;
    const bytes = s.signed_storage_key ? await ctx.providers.storage.get(s.signed_storage_key) : null;
    if (!bytes) {
      w.text(t.missingPdf(name), { size: 10 });
      continue;
    }
    const sha = sha256Hex(bytes);
    attachments.push({ name, bytes });
    hashes.push({ name: `${name} (${t.signedPdf})`, sha256: sha });
    w.text(`${name} (${t.signedPdf})`, { size: 10, font: 'bold', gap: 1 });
    w.text(sha, { size: 9, gap: 1 });
    if (s.original_sha256) w.text(`${t.original}: ${s.original_sha256}`, { size: 8, gap: 5, color: 0.35 });
  }
  w.space(4);
  w.heading(t.ids, 3, { size: 12, gap: 4 });
  let idCount = 0;
  // ID files count as on file once uploaded, whether or not the step was then marked complete.
  for (const s of allSubmissions.filter((x) => x.kind === 'patient_id' || x.kind === 'payor_id')) {
    for (const f of await listSubmissionFiles(db, s.id)) {
      idCount++;
      const label = t.idLine(t.docNames[s.kind] ?? s.kind, t.sides[f.side] ?? f.side, f.original_name || f.mime);
      hashes.push({ name: label, sha256: f.content_sha256 });
      w.text(label, { size: 10, font: 'bold', gap: 1 });
      w.text(f.content_sha256, { size: 9, gap: 5 });
    }
  }
  if (!idCount) w.text(t.noIds, { size: 10 });
  w.space(6);
  w.text(t.noCardNumbers, { size: 9, color: 0.35 });

  // Audit timeline
  w.newPage();
  w.heading(t.timeline, 2, { size: 14, gap: 2 });
  w.text(t.timelineNote, { size: 9, gap: 8, color: 0.35 });
  w.table(
    t.timelineColumns,
    audit.map((e) => {
      const who = t.actors[e.actor_type] ?? t.actors.system!;
      return [utc(e.at), e.action, `${who}${e.ip ? `, IP ${e.ip}` : ''}`, detailSummary(e.details ?? {})];
    }),
    { widths: [0.2, 0.26, 0.2, 0.34], size: 8 },
  );

  // The signed documents, page for page (their own signature and audit pages included)
  for (const a of attachments) {
    w.newPage();
    w.heading(t.appendix(a.name), 2, { size: 14, gap: 4 });
    // Their own tags come with their pages (decision 0221).
    await w.append(await PDFDocument.load(ownBytes(a.bytes), { updateMetadata: false }));
  }
  w.footer((n, total) => `${t.title} · ${link.id} · ${t.page(n, total)}`);
  const bytes = await doc.save();

  await writeAudit(db, {
    ...opts.actor,
    action: 'evidence.downloaded',
    linkId: link.id,
    details: { sha256: sha256Hex(bytes), documents: hashes.length, lang: opts.lang ?? 'en' },
  });
  return { fileName: `evidence-${link.id}.pdf`, bytes, documents: hashes };
}
