// The signing page's behaviour (served from SIGN_ORIGIN with a strict CSP: no inline script, no eval).
// Server-rendered HTML works on its own; this adds the signature pad, uploads with previews, the PDF viewer and the
// completion message to the app (only after the server has recorded completion).

const config = JSON.parse(document.getElementById('sign-config').textContent);
const t = config.t;
const $ = (id) => document.getElementById(id);

/** Tells the app (the parent frame, and only at the app's origin) that the server recorded completion. */
function notifyParent() {
  if (window.parent && window.parent !== window) {
    window.parent.postMessage({ action: 'submission-completed', formID: config.formID }, config.parentOrigin);
  }
}

function showDone() {
  for (const id of ['sign-form', 'upload-form']) $(id)?.remove();
  document.querySelector('.doc')?.remove();
  document.querySelector('.guidance')?.remove();
  document.querySelector('.intro')?.remove();
  const done = $('done');
  done.hidden = false;
  done.setAttribute('tabindex', '-1');
  done.focus();
}

function showError(el, message) {
  el.textContent = message;
  if (message) el.scrollIntoView({ block: 'nearest' });
}

async function postJson(url, body) {
  let res;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: t.errors.network };
  }
  const data = await res.json().catch(() => ({}));
  return { ok: res.ok, status: res.status, data, message: data.message || t.errors.generic };
}

// ------------------------------------------------------------------------------------------------ signature pad

function setupSignForm() {
  const form = $('sign-form');
  const canvas = $('pad');
  const box = $('pad-box');
  const errorEl = $('form-error');
  const pad = new window.SignaturePad(canvas, { penColor: '#0b1f4d', minWidth: 0.8, maxWidth: 2.6 });
  let method = 'draw';
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
    canvas.getContext('2d').scale(ratio, ratio);
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
  function setFullScreen(on) {
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
  canvas.parentElement.addEventListener(
    'pointerdown',
    (e) => {
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

  const drawBtn = $('method-draw');
  const typeBtn = $('method-type');
  function setMethod(m) {
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
  const typed = $('typed-signature');
  typed.addEventListener('input', () => ($('typed-preview').textContent = typed.value));
  // The signature typed on an earlier document, offered in one press (WCAG 3.3.7, issue 16 10g).
  const reuse = $('reuse-typed');
  if (reuse && config.previousTyped) {
    reuse.addEventListener('click', () => {
      typed.value = config.previousTyped;
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
    const signerName = $('signer-name').value.trim();
    if (!signerName) {
      showError(errorEl, t.errors.missingName);
      $('signer-name').focus();
      return;
    }
    const body = { lang: config.lang, signerName, method, documentSha256: config.documentSha256 };
    if (method === 'draw') {
      if (pad.isEmpty()) {
        showError(errorEl, t.errors.missingSignature);
        return;
      }
      body.signatureDataUrl = pad.toDataURL('image/png');
    } else {
      body.typedSignature = typed.value.trim();
      if (!body.typedSignature) {
        showError(errorEl, t.errors.missingSignature);
        typed.focus();
        return;
      }
    }
    busy = true;
    const submit = $('submit');
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
}

// ------------------------------------------------------------------------------------------------------ uploads

function setupUploadForm() {
  const form = $('upload-form');
  const errorEl = $('form-error');
  const uploaded = { front: null, back: null };
  const pending = { front: null, back: null };

  function preview(side, file) {
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

  async function upload(side, file) {
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
    let res;
    let data = {};
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

  for (const side of ['front', 'back']) {
    for (const [buttonId, inputId] of [
      [`${side}-choose`, `${side}-file`],
      [`${side}-camera`, `${side}-camera-input`],
    ]) {
      const input = $(inputId);
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
    const submit = $('submit');
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
}

// --------------------------------------------------------------------------------------------------- PDF viewer

async function setupPdfViewer() {
  const holder = $('pdf-pages');
  if (!holder) return;
  const statusEl = $('pdf-status');
  try {
    const pdfjs = await import('/assets/pdfjs/pdf.min.mjs');
    pdfjs.GlobalWorkerOptions.workerSrc = '/assets/pdfjs/pdf.worker.min.mjs';
    const doc = await pdfjs.getDocument({
      url: holder.dataset.src,
      isEvalSupported: false,
      standardFontDataUrl: '/assets/pdfjs/standard_fonts/',
      cMapUrl: '/assets/pdfjs/cmaps/',
      cMapPacked: true,
      wasmUrl: '/assets/pdfjs/wasm/',
    }).promise;
    const pages = [];
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
    renderAll();
    await rendering;
    statusEl?.remove();
    holder.removeAttribute('aria-busy');
  } catch {
    if (statusEl) statusEl.textContent = t.pdfFailed;
    holder.removeAttribute('aria-busy');
  }
}

// ---------------------------------------------------------------------------------------------------------- start

if (config.completed) {
  notifyParent();
} else if ($('sign-form')) {
  setupSignForm();
  setupPdfViewer();
} else if ($('upload-form')) {
  setupUploadForm();
}
