// The signing page's behaviour (served from SIGN_ORIGIN with a strict CSP: no inline script, no eval).
// The server-rendered HTML shows the document on its own; its forms submit nothing natively and their submit button says
// "Loading…" until this script is ready (issue 25). This adds the signature pad, uploads with previews, the PDF
// viewer and the completion message to the app (only after the server has recorded completion).
// TypeScript for the browser (./tsconfig.json); the signing server compiles it to /assets/sign.js (decision 0200).
// Type imports only, but for the contract's reflow, which is bundled in (browser-script.ts): the page loads the
// signature pad as a classic script and pdf.js on demand from /assets.
import type SignaturePad from 'signature_pad';
import type * as PdfJs from 'pdfjs-dist';
import type { PDFPageProxy } from 'pdfjs-dist';
import { readableAsText, reflowText, type ContractPara, type TextItem } from '../../src/modules/signing/reflow-text.js';

declare global {
  interface Window {
    SignaturePad: typeof SignaturePad;
  }
}

type Side = 'front' | 'back';
interface UploadedFile {
  id: string;
  side: Side;
  name: string;
  mime: string;
  url?: string;
}
/** What the server puts in #sign-config (render-page.ts, renderSigningPage). */
interface SignConfig {
  kind: string;
  lang: string;
  base: string;
  parentOrigin: string;
  formID: string;
  completed: boolean;
  documentSha256: string | null;
  previousTyped: string | null;
  maxBytes: number;
  files: UploadedFile[];
  t: {
    errors: Record<'network' | 'generic' | 'missingName' | 'missingSignature' | 'missingFiles' | 'tooLarge', string>;
    working: string;
    uploading: string;
    uploadedPrefix: string;
    noFile: string;
    sideLabel: Record<Side, string>;
    pdfFailed: string;
    pageOf: string;
  };
}
/** A JSON answer of the signing server. */
interface Answer {
  message?: string;
  error?: string;
}

const config: SignConfig = JSON.parse(document.getElementById('sign-config')!.textContent!);
const t = config.t;
/** An element every page of its kind has: a missing one throws where it is used. */
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
/** An element only some pages have. */
const maybe = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T | null;

/** Tells the app (the parent frame, and only at the app's origin) that the server recorded completion. */
function notifyParent() {
  if (window.parent && window.parent !== window) {
    window.parent.postMessage({ action: 'submission-completed', formID: config.formID }, config.parentOrigin);
  }
}

function showDone() {
  for (const id of ['sign-form', 'upload-form']) maybe(id)?.remove();
  document.querySelector('.doc')?.remove();
  document.querySelector('.guidance')?.remove();
  document.querySelector('.intro')?.remove();
  const done = $('done');
  done.hidden = false;
  done.setAttribute('tabindex', '-1');
  done.focus();
}

/**
 * The submit button is served disabled, busy and saying "Loading…" (the HTML arrives before this script): once the
 * form's handlers are attached it gets its real label and can be pressed (issue 25).
 */
function submitReady() {
  const submit = $<HTMLButtonElement>('submit');
  submit.textContent = submit.dataset.label!;
  submit.removeAttribute('aria-busy');
  submit.disabled = false;
}

function showError(el: HTMLElement, message: string) {
  el.textContent = message;
  if (message) el.scrollIntoView({ block: 'nearest' });
}

async function postJson(url: string, body: object) {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: t.errors.network };
  }
  const data: Answer = await res.json().catch(() => ({}));
  return { ok: res.ok, status: res.status, data, message: data.message || t.errors.generic };
}

// ------------------------------------------------------------------------------------------------ signature pad

function setupSignForm() {
  const form = $('sign-form');
  const canvas = $<HTMLCanvasElement>('pad');
  const box = $('pad-box');
  const errorEl = $('form-error');
  const pad = new window.SignaturePad(canvas, { penColor: '#0b1f4d', minWidth: 0.8, maxWidth: 2.6 });
  // The page opens on "Type" when it offers a signature typed on an earlier document (issue 29, item 12).
  let method: 'draw' | 'type' = $('method-type').getAttribute('aria-pressed') === 'true' ? 'type' : 'draw';
  let size = { w: 0, h: 0 };

  // Keep the drawing when the pad changes size (rotation, full screen): scale the points to the new box.
  function fitCanvas() {
    const rect = canvas.getBoundingClientRect();
    if (!rect.width || !rect.height) return;
    if (Math.round(rect.width) === size.w && Math.round(rect.height) === size.h) return;
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    const data = pad.toData();
    // One factor for both axes keeps the signature's shape; the smaller one keeps it inside the pad.
    const k = size.w && size.h ? Math.min(rect.width / size.w, rect.height / size.h) : 1;
    canvas.width = Math.round(rect.width * ratio);
    canvas.height = Math.round(rect.height * ratio);
    canvas.getContext('2d')!.scale(ratio, ratio);
    pad.clear();
    if (data.length) {
      pad.fromData(data.map((g) => ({ ...g, points: g.points.map((p) => ({ ...p, x: p.x * k, y: p.y * k })) })));
    }
    size = { w: Math.round(rect.width), h: Math.round(rect.height) };
  }
  new ResizeObserver(fitCanvas).observe(canvas);
  fitCanvas();

  const fullBtn = $('pad-fullscreen');
  const doneBtn = $('pad-done');
  function setFullScreen(on: boolean) {
    // The app lays the frame over the whole screen first, so "full screen" is the screen, not the frame's full height.
    setOverlay(on);
    box.classList.toggle('fullscreen', on);
    document.documentElement.classList.toggle('pad-open', on);
    fullBtn.hidden = on;
    doneBtn.hidden = !on;
    box.setAttribute('role', on ? 'dialog' : 'group');
    if (on) box.setAttribute('aria-modal', 'true');
    else box.removeAttribute('aria-modal');
    (on ? doneBtn : fullBtn).focus();
  }
  doneBtn.hidden = true;
  fullBtn.addEventListener('click', () => setFullScreen(true));
  doneBtn.addEventListener('click', () => setFullScreen(false));
  // Phones: a finger on the small inline pad opens it full screen first (room to sign, nothing scrolls); the stroke
  // starts there. Mouse and pen keep drawing inline.
  canvas.parentElement!.addEventListener(
    'pointerdown',
    (e: PointerEvent) => {
      const phone = Math.min(screen.width, screen.height) <= 700; // the device, not the frame
      if (e.pointerType !== 'touch' || !phone || box.classList.contains('fullscreen')) return;
      e.stopPropagation();
      e.preventDefault();
      setFullScreen(true);
    },
    { capture: true },
  );
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && box.classList.contains('fullscreen')) setFullScreen(false);
  });
  $('pad-clear').addEventListener('click', () => pad.clear());
  pad.addEventListener('beginStroke', () => showError(errorEl, ''));

  const drawBtn = $<HTMLButtonElement>('method-draw');
  const typeBtn = $<HTMLButtonElement>('method-type');
  function setMethod(m: 'draw' | 'type') {
    method = m;
    drawBtn.setAttribute('aria-pressed', String(m === 'draw'));
    typeBtn.setAttribute('aria-pressed', String(m === 'type'));
    $('draw-panel').hidden = m !== 'draw';
    $('type-panel').hidden = m !== 'type';
    if (m === 'draw') fitCanvas();
    else $('typed-signature').focus();
  }
  drawBtn.addEventListener('click', () => setMethod('draw'));
  typeBtn.addEventListener('click', () => setMethod('type'));
  // Rendered disabled so an early click cannot fall on a button that does nothing yet.
  drawBtn.disabled = false;
  typeBtn.disabled = false;
  const typed = $<HTMLInputElement>('typed-signature');
  typed.addEventListener('input', () => ($('typed-preview').textContent = typed.value));
  // The signature typed on an earlier document, offered in one press (WCAG 3.3.7, issue 16 10g).
  const reuse = maybe<HTMLButtonElement>('reuse-typed');
  const previousTyped = config.previousTyped;
  if (reuse && previousTyped) {
    reuse.addEventListener('click', () => {
      typed.value = previousTyped;
      $('typed-preview').textContent = typed.value;
      setMethod('type');
      showError(errorEl, '');
    });
    reuse.disabled = false;
  }

  // The date next to the signature is the signer's own local date.
  const date = $('sign-date');
  date.textContent = new Date().toLocaleDateString(config.lang === 'es' ? 'es-US' : 'en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });

  let busy = false;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    const signerName = $<HTMLInputElement>('signer-name').value.trim();
    if (!signerName) {
      showError(errorEl, t.errors.missingName);
      $('signer-name').focus();
      return;
    }
    const body: Record<string, string | null> = {
      lang: config.lang,
      signerName,
      method,
      documentSha256: config.documentSha256,
    };
    if (method === 'draw') {
      if (pad.isEmpty()) {
        showError(errorEl, t.errors.missingSignature);
        return;
      }
      body.signatureDataUrl = pad.toDataURL('image/png');
    } else {
      const typedSignature = typed.value.trim();
      body.typedSignature = typedSignature;
      if (!typedSignature) {
        showError(errorEl, t.errors.missingSignature);
        typed.focus();
        return;
      }
    }
    busy = true;
    const submit = $<HTMLButtonElement>('submit');
    const label = submit.textContent;
    submit.disabled = true;
    submit.textContent = t.working;
    showError(errorEl, '');
    const r = await postJson(`${config.base}/complete`, body);
    if (r.ok || r.data?.error === 'already_completed') {
      showDone();
      notifyParent();
      return;
    }
    busy = false;
    submit.disabled = false;
    submit.textContent = label;
    showError(errorEl, r.message);
    errorEl.focus?.();
  });
  submitReady();
}

// ------------------------------------------------------------------------------------------------------ uploads

function setupUploadForm() {
  const form = $('upload-form');
  const errorEl = $('form-error');
  const uploaded: Record<Side, UploadedFile | null> = { front: null, back: null };
  const pending: Record<Side, Promise<void> | null> = { front: null, back: null };

  function preview(side: Side, file: UploadedFile | null) {
    const el = $(`${side}-preview`);
    el.replaceChildren();
    if (!file) {
      const none = document.createElement('p');
      none.className = 'muted small';
      none.textContent = t.noFile;
      el.append(none);
      return;
    }
    const label = `${t.sideLabel[side]}: ${file.name}`;
    if (file.mime === 'application/pdf') {
      const a = document.createElement('a');
      a.href = file.url || `${config.base}/files/${file.id}`;
      a.target = '_blank';
      a.rel = 'noopener';
      a.className = 'pdf-chip';
      a.textContent = `PDF · ${file.name}`;
      el.append(a);
    } else {
      const img = document.createElement('img');
      img.src = file.url || `${config.base}/files/${file.id}`;
      img.alt = label;
      el.append(img);
    }
    const p = document.createElement('p');
    p.className = 'muted small';
    p.textContent = `${t.uploadedPrefix}${file.name}`;
    el.append(p);
  }

  async function upload(side: Side, file: File) {
    const errEl = $(`${side}-error`);
    showError(errEl, '');
    showError(errorEl, '');
    if (file.size > config.maxBytes) {
      showError(errEl, t.errors.tooLarge);
      return;
    }
    const previewEl = $(`${side}-preview`);
    previewEl.setAttribute('aria-busy', 'true');
    const status = document.createElement('p');
    status.className = 'muted';
    status.textContent = t.uploading;
    previewEl.replaceChildren(status);
    const fd = new FormData();
    fd.append('file', file, file.name);
    let res: Response | null;
    let data: UploadedFile & Answer = {} as UploadedFile & Answer;
    try {
      res = await fetch(`${config.base}/files?side=${side}&lng=${config.lang}`, { method: 'POST', body: fd });
      data = await res.json().catch(() => ({}));
    } catch {
      res = null;
    }
    previewEl.removeAttribute('aria-busy');
    if (!res || !res.ok) {
      preview(side, uploaded[side]);
      showError(errEl, res ? data.message || t.errors.generic : t.errors.network);
      return;
    }
    uploaded[side] = data;
    preview(side, data);
  }

  for (const side of ['front', 'back'] as const) {
    for (const [buttonId, inputId] of [
      [`${side}-choose`, `${side}-file`],
      [`${side}-camera`, `${side}-camera-input`],
    ] as const) {
      const input = $<HTMLInputElement>(inputId);
      $(buttonId).addEventListener('click', () => input.click());
      input.addEventListener('change', () => {
        const file = input.files?.[0];
        if (!file) return;
        pending[side] = upload(side, file).finally(() => {
          pending[side] = null;
          input.value = '';
        });
      });
    }
  }
  for (const f of config.files) {
    uploaded[f.side] = f;
    preview(f.side, f);
  }

  let busy = false;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    busy = true;
    const submit = $<HTMLButtonElement>('submit');
    const label = submit.textContent;
    submit.disabled = true;
    submit.textContent = t.working;
    // Uploads still on their way count: wait for them before deciding.
    await Promise.all([pending.front, pending.back]);
    if (!uploaded.front || !uploaded.back) {
      showError(errorEl, t.errors.missingFiles);
      busy = false;
      submit.disabled = false;
      submit.textContent = label;
      return;
    }
    const r = await postJson(`${config.base}/complete`, { lang: config.lang });
    if (r.ok || r.data?.error === 'already_completed') {
      showDone();
      notifyParent();
      return;
    }
    busy = false;
    submit.disabled = false;
    submit.textContent = label;
    showError(errorEl, r.message);
  });
  submitReady();
}

// --------------------------------------------------------------------------------------------------- PDF viewer

const NARROW = 560; // below this width the printed pages' text is too small to read (issue 16, item 1)

function renderReflow(holder: HTMLElement, paras: ContractPara[]) {
  holder.replaceChildren(
    ...paras.map((p) => {
      const el = document.createElement(p.kind === 'h' ? 'h2' : 'p');
      el.textContent = p.text;
      if (p.kind === 'small') el.className = 'small';
      return el;
    }),
  );
}

/** Text (phones) or printed pages (wider screens), and a switch between them. */
function setupViewSwitch(textHolder: HTMLElement, holder: HTMLElement, onPages: () => void) {
  const textBtn = $('view-text');
  const pagesBtn = $('view-pages');
  const setView = (view: 'text' | 'pages') => {
    textBtn.setAttribute('aria-pressed', String(view === 'text'));
    pagesBtn.setAttribute('aria-pressed', String(view === 'pages'));
    textHolder.hidden = view !== 'text';
    $('text-view-note').hidden = view !== 'text';
    holder.hidden = view !== 'pages';
    if (view === 'pages') onPages();
  };
  textBtn.addEventListener('click', () => setView('text'));
  pagesBtn.addEventListener('click', () => setView('pages'));
  $('view-switch').hidden = false;
  // Phones start with the text; wider screens with the pages as printed.
  setView(document.documentElement.clientWidth < NARROW ? 'text' : 'pages');
}

async function setupPdfViewer() {
  const holder = maybe('pdf-pages');
  if (!holder) return;
  const textHolder = maybe('pdf-text');
  // The server sent the contract's text (issue 30): pdf.js (439 KB with its worker) loads only for the pages.
  if (textHolder?.hasAttribute('data-from-server')) {
    textHolder.lang = document.documentElement.lang;
    // Nothing is loading until the pages are asked for.
    holder.removeAttribute('aria-busy');
    let pages: Promise<void> | undefined;
    setupViewSwitch(textHolder, holder, () => {
      if (pages) return;
      holder.setAttribute('aria-busy', 'true');
      pages = loadPages(holder, false);
    });
    return;
  }
  await loadPages(holder, true);
}

/** pdf.js, the pages drawn to the holder's width; `readText`: the text view too, from pdf.js's text layer. */
async function loadPages(holder: HTMLElement, readText: boolean) {
  const statusEl = maybe('pdf-status');
  try {
    // A URL on this origin, not a module to bundle: the typed name keeps TypeScript from resolving it.
    const url: string = '/assets/pdfjs/pdf.min.mjs';
    const pdfjs: typeof PdfJs = await import(url);
    pdfjs.GlobalWorkerOptions.workerSrc = '/assets/pdfjs/pdf.worker.min.mjs';
    const doc = await pdfjs.getDocument({
      url: holder.dataset.src,
      isEvalSupported: false,
      standardFontDataUrl: '/assets/pdfjs/standard_fonts/',
      cMapUrl: '/assets/pdfjs/cmaps/',
      cMapPacked: true,
      wasmUrl: '/assets/pdfjs/wasm/',
    }).promise;
    const pages: { page: PDFPageProxy; canvas: HTMLCanvasElement }[] = [];
    const pagesItems: TextItem[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const figure = document.createElement('figure');
      figure.className = 'pdf-page';
      const canvas = document.createElement('canvas');
      canvas.setAttribute('aria-hidden', 'true');
      const caption = document.createElement('figcaption');
      caption.className = 'muted small';
      caption.textContent = t.pageOf.replace('#', String(n)).replace('#', String(doc.numPages));
      const text = document.createElement('div');
      text.className = 'visually-hidden';
      const content = await page.getTextContent();
      // Marked-content items carry no text.
      pagesItems.push(content.items.filter((i) => 'str' in i));
      text.textContent = content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
      figure.append(canvas, text, caption);
      holder.append(figure);
      pages.push({ page, canvas });
    }
    let lastWidth = 0;
    let rendering = Promise.resolve();
    const renderAll = () => {
      const width = holder.clientWidth;
      if (!width || Math.abs(width - lastWidth) < 2) return;
      lastWidth = width;
      rendering = rendering.then(async () => {
        const ratio = Math.max(window.devicePixelRatio || 1, 1);
        for (const { page, canvas } of pages) {
          const base = page.getViewport({ scale: 1 });
          const viewport = page.getViewport({ scale: (width / base.width) * ratio });
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          await page.render({ canvas, viewport }).promise;
        }
      });
    };
    new ResizeObserver(renderAll).observe(holder);

    // A PDF with a text layer can be read as text; a scan keeps the pages only.
    // The server's rule, bundled in (reflow-text.ts): used when the server sent no text.
    const paras = readText ? reflowText(pagesItems) : [];
    const textHolder = maybe('pdf-text');
    if (textHolder && readableAsText(paras)) {
      renderReflow(textHolder, paras);
      textHolder.lang = document.documentElement.lang;
      setupViewSwitch(textHolder, holder, renderAll);
    } else {
      renderAll();
    }
    await rendering;
    statusEl?.remove();
    holder.removeAttribute('aria-busy');
  } catch {
    if (statusEl) statusEl.textContent = t.pdfFailed;
    holder.removeAttribute('aria-busy');
  }
}

// ------------------------------------------------------------------------------------------- layout in the app

/** Messages to the app about the frame's layout (the app checks the origin and the frame): only when framed. */
function toParent(message: object) {
  if (window.parent && window.parent !== window) window.parent.postMessage(message, config.parentOrigin);
}

/**
 * One scroll on phones (issue 16, item 1): the page reports its height and the app sizes the frame to it on narrow
 * screens, so nothing scrolls inside the frame. Full-screen states (the signature pad, reading mode) ask the app to
 * lay the frame over the whole screen.
 */
let reportHeight: (force?: boolean) => void = () => {};
function setupFrameLayout() {
  const main = $('main');
  let last = 0;
  const report = (force?: boolean) => {
    if (document.documentElement.classList.contains('overlay')) return;
    const height = Math.ceil(main.getBoundingClientRect().height);
    if (height && (force === true || Math.abs(height - last) > 1)) {
      last = height;
      toParent({ action: 'frame-height', height });
    }
  };
  new ResizeObserver(() => report()).observe(main);
  report();
  reportHeight = report;
}

function setOverlay(on: boolean) {
  document.documentElement.classList.toggle('overlay', on);
  toParent({ action: 'overlay', on });
  // Sizes may have changed while full screen (rotation): report again.
  if (!on) reportHeight(true);
}

function setupReading() {
  const docEl = maybe('contract-doc');
  const open = maybe('read-full');
  const close = maybe('read-close');
  const jump = maybe('jump-sign');
  if (!docEl || !open || !close) return;
  const setReading = (on: boolean) => {
    document.documentElement.classList.toggle('reading', on);
    close.hidden = !on;
    setOverlay(on);
    if (on) {
      window.scrollTo(0, 0);
      close.focus();
    } else open.focus();
  };
  open.hidden = false;
  open.addEventListener('click', () => setReading(true));
  close.addEventListener('click', () => setReading(false));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && document.documentElement.classList.contains('reading')) setReading(false);
  });
  jump?.addEventListener('click', (e) => {
    e.preventDefault();
    if (document.documentElement.classList.contains('reading')) setReading(false);
    const target = $('sign-h');
    // Inside a frame that scrolls (wide screens) this scrolls the frame; on phones the frame is as tall as its page
    // and the app scrolls its page to the heading (the message below). Only this page: scrollIntoView would also
    // scroll the app's page, smoothly, racing the app's own scroll, and now and then left the heading above the
    // top of the screen (issue 25).
    window.scrollTo(0, target.getBoundingClientRect().top + window.scrollY);
    toParent({
      action: 'scroll-to',
      top: Math.max(0, Math.round(target.getBoundingClientRect().top + window.scrollY)),
    });
    target.focus({ preventScroll: true });
  });
}

// ---------------------------------------------------------------------------------------------------------- start

setupFrameLayout();
if (config.completed) {
  notifyParent();
} else if (maybe('sign-form')) {
  setupSignForm();
  setupReading();
  setupPdfViewer();
} else if (maybe('upload-form')) {
  setupUploadForm();
}
