import { joinHtml, markup, raw, type SafeHtml } from '../../lib/escape.js';
import { authorizationModel, expectedSigner, invoiceModel, type DocumentData } from './documents.js';
import { formatDate, TEXTS, type Lang, type Texts } from './sign-texts.js';
import type { SubmissionFileRow } from './submission-queries.js';
import type { ContractPara } from './contract-text.js';

/** JSON inside <script type="application/json">: no way to close the element from the data. */
const jsonForHtml = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

const SCRIPTS = raw(
  '<script src="/assets/signature_pad.umd.min.js" defer></script>\n<script type="module" src="/assets/sign.js"></script>',
);

function layout(opts: { lang: Lang; title: string; body: SafeHtml; config?: unknown; script?: boolean }): string {
  return markup`<!doctype html>
<html lang="${opts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<title>${opts.title}</title>
<link rel="stylesheet" href="/assets/sign.css">
${opts.script ? SCRIPTS : ''}
</head>
<body>
<main id="main" class="wrap">
${opts.body}
</main>
${opts.config !== undefined ? markup`<script type="application/json" id="sign-config">${raw(jsonForHtml(opts.config))}</script>` : ''}
</body>
</html>
`.toString();
}

/** A page that only says why the document cannot be opened. */
export function renderMessagePage(lang: Lang, title: string, message: string): string {
  return layout({
    lang,
    title,
    body: markup`<h1>${title}</h1>\n<p class="notice" role="alert">${message}</p>`,
  });
}

function invoiceSection(d: DocumentData, t: Texts, lang: Lang): SafeHtml {
  const m = invoiceModel(d, lang);
  const lines = (xs: string[]) => joinHtml(xs, raw('<br>'));
  return markup`<section class="doc invoice" aria-labelledby="page-title">
<div class="inv-head">
  <div><p class="label">${t.billedBy}</p><p>${lines(m.practice)}</p></div>
  <dl class="inv-meta">
    <div><dt>${t.invoiceNumber}</dt><dd>${m.number}</dd></div>
    <div><dt>${t.invoiceDate}</dt><dd>${m.date}</dd></div>
  </dl>
</div>
<p class="label">${t.billTo}</p>
<p>${lines(m.billTo)}</p>
<table class="inv-lines">
  <thead><tr><th scope="col">${t.description}</th><th scope="col" class="num">${t.amount}</th></tr></thead>
  <tbody><tr><td>${m.description}${m.paymentType ? markup`<br><span class="muted">${m.paymentType}</span>` : ''}</td><td class="num">${m.amount}</td></tr></tbody>
  <tfoot><tr><th scope="row">${t.total}</th><td class="num total">${m.amount}</td></tr></tfoot>
</table>
${m.plan ? planPart(m.plan, t) : ''}<p class="muted small">${m.plan ? t.planInvoiceNote : t.invoiceNote}</p>
</section>`;
}

/** A plan link's invoice: the total, today's payment and each later charge (issue 41, item 5; decision 0241). */
function planPart(plan: NonNullable<ReturnType<typeof invoiceModel>['plan']>, t: Texts): SafeHtml {
  const later = plan.lines.length
    ? markup`<p class="label">${t.planLater}</p>
<ul class="plan-charges">${joinHtml(
        plan.lines.map((l) => markup`<li>${l}</li>`),
        '',
      )}</ul>
`
    : '';
  return markup`<section class="invoice-plan" aria-labelledby="invoice-plan-h">
<h2 id="invoice-plan-h">${t.planHeading}</h2>
<table class="inv-lines">
  <tbody>
    <tr><th scope="row">${t.planTotal}</th><td class="num">${plan.total}</td></tr>
    <tr><th scope="row">${t.planToday}</th><td class="num">${plan.today}</td></tr>
  </tbody>
</table>
${later}<p>${plan.note}</p>
</section>
`;
}

/** The reflowed text as the frame would have built it from pdf.js (headings, paragraphs, small print). */
function reflowedText(paras: ContractPara[]): SafeHtml {
  return joinHtml(
    paras.map((p) =>
      p.kind === 'h'
        ? markup`<h2>${p.text}</h2>`
        : p.kind === 'small'
          ? markup`<p class="small">${p.text}</p>`
          : markup`<p>${p.text}</p>`,
    ),
    '\n',
  );
}

function contractSection(t: Texts, pdfUrl: string, fallback: boolean, text: ContractPara[] | null): SafeHtml {
  // The practice has no contract in the reader's language: say so before the English pages (issue 16, item 3).
  const note = fallback ? markup`<p class="notice lang-note" id="contract-lang-note">${t.contractInEnglish}</p>\n` : '';
  // Phones (issue 16, item 1): the contract's text reflowed at a legible size (pdf-text), the printed pages on demand,
  // a full-screen reading mode and a jump to the signature. sign.js fills and shows these; without it, the pages.
  return markup`<section class="doc contract" id="contract-doc" aria-labelledby="page-title">
<button type="button" class="secondary read-close" id="read-close" hidden>${t.closeReading}</button>
${note}<div class="doc-tools">
  <a href="#sign-h" class="jump-link" id="jump-sign">${t.jumpToSign}</a>
  <button type="button" class="link-button" id="read-full" hidden>${t.readFullScreen}</button>
</div>
<div class="methods view-switch" id="view-switch" role="group" aria-label="${t.viewLegend}" hidden>
  <button type="button" class="toggle" id="view-text" aria-pressed="true" aria-controls="pdf-text">${t.viewText}</button>
  <button type="button" class="toggle" id="view-pages" aria-pressed="false" aria-controls="pdf-pages">${t.viewPages}</button>
</div>
<p class="hint" id="text-view-note" hidden>${t.textViewNote}</p>
<div id="pdf-text" class="pdf-text"${text ? raw(' data-from-server=""') : ''} hidden>${text ? reflowedText(text) : ''}</div>
<div id="pdf-pages" class="pdf-pages" data-src="${pdfUrl}" aria-busy="true">
  <p class="muted" id="pdf-status" role="status">${t.pdfLoading}</p>
</div>
<p><a class="pdf-link" href="${pdfUrl}" target="_blank" rel="noopener">${t.openPdf}</a></p>
</section>`;
}

function authorizationSection(d: DocumentData, t: Texts, lang: Lang): SafeHtml {
  return markup`<section class="doc authorization" aria-labelledby="page-title">
${joinHtml(
  authorizationModel(d, lang).map((p) => markup`<p>${p}</p>`),
  '\n',
)}
</section>`;
}

/**
 * The form's submit button as the HTML arrives: disabled, busy and saying "Loading…" until sign.js has attached the
 * form's handlers and puts the real label (`data-label`) in (issue 25). The forms themselves have no native submit
 * path either (`method="dialog"` outside a dialog submits nothing, and the CSP's form-action is 'none'): a press or an
 * Enter in the name field before the script is ready can never reload the frame and lose what was typed.
 */
function pendingSubmit(t: Texts, label: string): SafeHtml {
  return markup`<button type="submit" id="submit" class="primary" disabled aria-busy="true" data-label="${label}">${t.preparing}</button>`;
}

function signForm(t: Texts, signer: string, lang: Lang, previous: PreviousTyped | null): SafeHtml {
  const today = formatDate(new Date(), lang);
  // With a signature typed on an earlier document, the form opens on "Type", that signature in place (issue 29, 12).
  const typeFirst = previous !== null;
  return markup`<form id="sign-form" class="card" method="dialog" novalidate aria-labelledby="sign-h">
<h2 id="sign-h" tabindex="-1">${t.signHeading}</h2>
<div class="field">
  <label for="signer-name">${t.signerName}</label>
  <input id="signer-name" name="signerName" autocomplete="name" required maxlength="200" value="${previous?.signerName ?? signer}">
</div>
${
  // WCAG 3.3.7: the signature typed on an earlier document is offered, not asked for again (issue 16, 10g).
  previous
    ? markup`<div class="reuse" id="reuse-box">
  <p class="hint" id="reuse-hint">${t.reuseTypedHint}</p>
  <button type="button" class="secondary" id="reuse-typed" aria-describedby="reuse-hint" disabled>${t.reuseTyped(previous.typedSignature)}</button>
</div>`
    : ''
}
<div class="methods" role="group" aria-label="${t.methodLegend}">
  <button type="button" class="toggle" id="method-draw" aria-pressed="${String(!typeFirst)}" aria-controls="draw-panel" disabled>${t.methodDraw}</button>
  <button type="button" class="toggle" id="method-type" aria-pressed="${String(typeFirst)}" aria-controls="type-panel" disabled>${t.methodType}</button>
</div>
<div id="draw-panel" class="panel"${typeFirst ? raw(' hidden') : ''}>
  <p class="hint" id="draw-hint">${t.drawHint}</p>
  <div id="pad-box" class="pad-box">
    <div class="pad-bar">
      <span class="pad-title">${t.yourSignature}</span>
      <button type="button" id="pad-fullscreen" class="link-button">${t.fullScreen}</button>
    </div>
    <div class="pad-area">
      <canvas id="pad" role="img" aria-label="${t.padLabel}"></canvas>
    </div>
    <div class="pad-actions">
      <button type="button" id="pad-clear" class="secondary">${t.clear}</button>
      <button type="button" id="pad-done" class="secondary pad-done">${t.doneDrawing}</button>
    </div>
  </div>
</div>
<div id="type-panel" class="panel"${typeFirst ? '' : raw(' hidden')}>
  <div class="field">
    <label for="typed-signature">${t.typedLabel}</label>
    <input id="typed-signature" autocomplete="off" maxlength="200" value="${previous?.typedSignature ?? ''}">
  </div>
  <p id="typed-preview" class="typed-preview" aria-hidden="true">${previous?.typedSignature ?? ''}</p>
</div>
<p class="date"><span>${t.signDate}:</span> <time id="sign-date">${today}</time></p>
<p class="consent small">${t.consent}</p>
<p id="form-error" class="error" role="alert"></p>
${pendingSubmit(t, t.submitSign)}
</form>`;
}

function uploadForm(t: Texts, maxMb: number): SafeHtml {
  const accept = 'image/jpeg,image/png,image/heic,image/heif,.heic,.heif,application/pdf';
  const slot = (side: 'front' | 'back', label: string) => markup`<div class="slot" data-side="${side}">
  <h2 id="${side}-h">${label}</h2>
  <div id="${side}-preview" class="preview" aria-live="polite"><p class="muted small">${t.noFile}</p></div>
  <div class="slot-actions">
    <button type="button" class="secondary camera-only" id="${side}-camera" aria-describedby="${side}-hint">${t.takePhoto(label)}</button>
    <button type="button" class="secondary" id="${side}-choose" aria-describedby="${side}-hint">${t.chooseFile(label)}</button>
  </div>
  <input type="file" id="${side}-file" class="file-input" accept="${accept}" tabindex="-1" aria-hidden="true">
  <p class="hint" id="${side}-hint">${t.fileTypes}, ${t.maxSize(maxMb)}</p>
  <p class="error" id="${side}-error" role="alert"></p>
</div>`;
  // The camera inputs come last: a phone opens its camera directly for them (capture); the inputs above also accept
  // PDFs and photos already on the phone.
  const camera = (side: 'front' | 'back') =>
    markup`<input type="file" id="${side}-camera-input" class="file-input" accept="image/*" capture="environment" tabindex="-1" aria-hidden="true">`;
  // No guidance list here: the patient app shows the spec's five-item list once, beside this frame (issue 16, item 2),
  // so the upload controls are the first thing in the frame.
  return markup`<form id="upload-form" method="dialog" novalidate>
<div class="slots">
${slot('front', t.front)}
${slot('back', t.back)}
</div>
<p id="form-error" class="error" role="alert"></p>
${pendingSubmit(t, t.submitUpload)}
${camera('front')}
${camera('back')}
</form>`;
}

export interface PreviousTyped {
  signerName: string;
  typedSignature: string;
}

export interface PageInput {
  lang: Lang;
  data: DocumentData;
  base: string;
  parentOrigin: string;
  maxMb: number;
  documentSha256: string | null;
  files: SubmissionFileRow[];
  /** The signature this signer typed on an earlier document of the link, offered again (issue 16, 10g). */
  previousTyped?: PreviousTyped | null;
  /** The contract is the English one shown to a Spanish reader. */
  contractFallback?: boolean;
  /** The contract's text reflowed on the server (contract-text.ts); null: the frame reads it with pdf.js. */
  contractText?: ContractPara[] | null;
}

/** The signing page for one submission: the document, then the signature or upload form. */
export function renderSigningPage(p: PageInput): string {
  const t = TEXTS[p.lang];
  const { submission } = p.data;
  const kind = submission.kind;
  const isId = kind === 'patient_id' || kind === 'payor_id';
  const completed = submission.status === 'completed';
  const pdfUrl = `${p.base}/document.pdf?lng=${p.lang}`;
  let doc: SafeHtml | '' = '';
  if (kind === 'invoice') doc = invoiceSection(p.data, t, p.lang);
  if (kind === 'contract') doc = contractSection(t, pdfUrl, p.contractFallback === true, p.contractText ?? null);
  if (kind === 'payment_authorization') doc = authorizationSection(p.data, t, p.lang);
  const done = markup`<div id="done" class="done" role="status" ${completed ? '' : 'hidden'}>
<h2>${t.done.title}</h2><p>${isId ? t.done.uploaded : t.done.signed}</p></div>`;
  const form = completed
    ? ''
    : isId
      ? uploadForm(t, p.maxMb)
      : signForm(t, expectedSigner(p.data), p.lang, p.previousTyped ?? null);
  const body = markup`<h1 id="page-title">${t.title[kind]}</h1>
${completed ? '' : markup`<p class="intro">${t.intro[kind]}</p>`}
${completed ? '' : doc}
${form}
${done}`;
  return layout({
    lang: p.lang,
    title: t.title[kind],
    body,
    script: true,
    config: {
      kind,
      lang: p.lang,
      base: p.base,
      parentOrigin: p.parentOrigin,
      formID: submission.id,
      completed,
      documentSha256: p.documentSha256,
      previousTyped: completed ? null : (p.previousTyped?.typedSignature ?? null),
      maxBytes: p.maxMb * 1024 * 1024,
      files: p.files.map((f) => ({ id: f.id, side: f.side, name: f.original_name, mime: f.mime })),
      t: {
        errors: { ...t.errors, tooLarge: t.errors.tooLarge(p.maxMb) },
        working: t.working,
        uploading: t.uploading,
        uploadedPrefix: t.uploaded(''),
        noFile: t.noFile,
        choose: { front: t.chooseFile(t.front), back: t.chooseFile(t.back) },
        sideLabel: { front: t.front, back: t.back },
        yourSignature: t.yourSignature,
        redraw: t.redrawButton,
        draw: t.drawButton,
        noSignature: t.noSignature,
        pdfFailed: t.pdfFailed,
        pageOf: t.pageOf(0, 0).replace(/0/g, '#'),
        padEmpty: t.errors.missingSignature,
        fullScreen: t.fullScreen,
        exitFullScreen: t.doneDrawing,
      },
    },
  });
}
