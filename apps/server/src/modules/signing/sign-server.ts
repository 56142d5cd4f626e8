import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { recordRoutes } from '../../http/route-inventory.js';
import { compressedFiles } from '../../http/static-assets.js';
import { compressDynamic } from '../../lib/compress-response.js';
import { asAppError, httpErrorOf, httpStatusOf } from '../../http/errors.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import { z, ZodError } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { CompleteRefused, completeSubmission } from './complete-submission.js';
import { contractForSubmission } from './contracts.js';
import { contractTextInWorker } from './document-worker-pool.js';
import { ASSETS_DIR, buildOriginalPdf, expectedSigner, loadDocumentData, signsAs } from './documents.js';
import { resolveSubmission, SubmissionRefused, type RefusalReason } from './open-submission.js';
import { compileBrowserScript } from './browser-script.js';
import { renderMessagePage, renderSigningPage } from './render-page.js';
import { pickLang, TEXTS, type Lang } from './sign-texts.js';
import { sha256Hex } from './submission-queries.js';
import { UploadRefused, uploadSubmissionFile } from './upload-submission-file.js';
import { fastifyTrustProxy } from '../../lib/trust-proxy.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const SIGNATURE_PAD = path.join(path.dirname(require.resolve('signature_pad')), 'signature_pad.umd.min.js');

/** Files the pages load; everything else under /assets is 404. `load` makes what is sent from the file. */
const ASSETS: Record<string, { file: string; type: string; load?: (file: string) => Promise<Buffer> }> = {
  'sign.js': {
    file: path.join(ASSETS_DIR, 'signing/sign.ts'),
    type: 'text/javascript; charset=utf-8',
    load: compileBrowserScript,
  },
  'sign.css': { file: path.join(ASSETS_DIR, 'signing/sign.css'), type: 'text/css; charset=utf-8' },
  'signature_pad.umd.min.js': { file: SIGNATURE_PAD, type: 'text/javascript; charset=utf-8' },
  'pdfjs/pdf.min.mjs': { file: path.join(PDFJS_DIR, 'build/pdf.min.mjs'), type: 'text/javascript; charset=utf-8' },
  'pdfjs/pdf.worker.min.mjs': {
    file: path.join(PDFJS_DIR, 'build/pdf.worker.min.mjs'),
    type: 'text/javascript; charset=utf-8',
  },
};
const PDFJS_DATA = /^pdfjs\/(standard_fonts|cmaps|wasm)\/([A-Za-z0-9_.-]+)$/;

const tokenParams = z.object({ token: z.string().max(100) });
const completeBody = z.object({
  lang: z.enum(['en', 'es']).optional(),
  signerName: z.string().max(400).optional(),
  method: z.enum(['draw', 'type']).optional(),
  signatureDataUrl: z.string().max(2_000_000).optional(),
  typedSignature: z.string().max(400).optional(),
  documentSha256: z.string().max(64).nullish(),
});

/** Content-Security-Policy of the signing pages: own scripts only, and only the app may frame them. */
function signingCsp(publicUrl: string): string {
  return [
    "default-src 'none'",
    // pdf.js decodes some image formats (JPEG 2000) with WebAssembly.
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    // The pages' forms never submit natively (sign.js posts them; decision 0190).
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${publicUrl}`,
  ].join('; ');
}

const REFUSAL_TEXT = (t: (typeof TEXTS)['en'], reason: RefusalReason) =>
  ({
    not_found: t.refused.notFound,
    expired: t.refused.expired,
    cancelled: t.refused.cancelled,
    link_completed: t.refused.completed,
    already_completed: t.done.signed,
  })[reason];

function errorMessage(err: AppError, lang: Lang, maxMb: number): string {
  const t = TEXTS[lang];
  if (err instanceof SubmissionRefused) return REFUSAL_TEXT(t, err.reason);
  if (err instanceof UploadRefused) {
    return {
      too_large: t.errors.tooLarge(maxMb),
      too_many_pixels: t.errors.tooManyPixels,
      busy: t.errors.busy,
      wrong_type: t.errors.wrongType,
      unreadable: t.errors.unreadable,
      encrypted_pdf: t.errors.encryptedPdf,
      duplicate: t.errors.duplicate,
      not_id: t.errors.generic,
    }[err.problem];
  }
  if (err instanceof CompleteRefused) {
    return {
      missing_files: t.errors.missingFiles,
      missing_name: t.errors.missingName,
      missing_signature: t.errors.missingSignature,
      bad_signature: t.errors.missingSignature,
      changed: t.errors.changed,
    }[err.problem];
  }
  return err.message;
}

const requestLang = (request: FastifyRequest) =>
  pickLang((request.query as { lng?: unknown } | undefined)?.lng, request.headers['accept-language']);

/**
 * The built-in signing service on its own origin (SIGN_ORIGIN): server-rendered pages for each document, ID uploads,
 * completion, and the original document for the viewer. The app frames `/s/<token>`; nothing here reads the app's
 * session: the unguessable token is the capability, and it only works while its link is active.
 */
export async function buildSignServer(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const maxMb = config.UPLOAD_MAX_MB;
  const contractCtx = { config, storage: ctx.providers.storage };
  const app = Fastify({
    loggerInstance: ctx.log.child({ server: 'sign' }) as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: 3 * 1024 * 1024,
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true },
  });
  recordRoutes(app);
  await app.register(helmet, {
    contentSecurityPolicy: false,
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
  });
  await app.register(multipart, {
    limits: { fileSize: maxMb * 1024 * 1024, files: 1, fields: 4, parts: 6 },
  });
  const csp = signingCsp(config.publicUrl);
  app.addHook('onSend', async (request, reply) => {
    reply.header('content-security-policy', csp);
    if (!request.url.startsWith('/assets/')) reply.header('cache-control', 'no-store');
    // Browsers apply CORP to framed documents too: the signing page must be loadable by the app's frame (which
    // frame-ancestors restricts); everything else stays same-origin.
    const isPage = request.method === 'GET' && /^\/s\/[^/?]+(\?|$)/.test(request.url);
    reply.header('cross-origin-resource-policy', isPage ? 'cross-origin' : 'same-origin');
  });
  // The frame's pages (6–9 KB of HTML each, five per journey) and answers, compressed per request (issue 30).
  app.addHook('onSend', async (request, reply, payload) => compressDynamic(request, reply, payload));

  app.setErrorHandler((thrown: Error & { code?: string; statusCode?: number }, request, reply) => {
    const error = asAppError(thrown);
    const lang = requestLang(request);
    if (error instanceof AppError) {
      const { status, error: name } = httpErrorOf(error);
      return reply.status(status).send({ error: name, message: errorMessage(error, lang, maxMb) });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ error: 'invalid_request', message: TEXTS[lang].errors.generic });
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.statusCode === 413) {
      return reply.status(413).send({ error: 'upload_too_large', message: TEXTS[lang].errors.tooLarge(maxMb) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: 'invalid_request', message: TEXTS[lang].errors.generic });
    }
    request.log.error({ err: error }, 'signing error');
    return reply.status(500).send({ error: 'internal', message: TEXTS[lang].errors.generic });
  });
  app.setNotFoundHandler(async (request, reply) => {
    const lang = requestLang(request);
    const t = TEXTS[lang];
    return reply
      .status(404)
      .type('text/html; charset=utf-8')
      .send(renderMessagePage(lang, t.errors.generic, t.refused.notFound));
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/favicon.ico', async (_request, reply) => reply.status(204).send());

  const assetFile = compressedFiles();
  // Ready before the first patient: sign.ts compiled and pdf.js (1.7 MB) compressed once at boot, in the background,
  // instead of on the first page's requests (seconds on a busy machine).
  app.addHook('onReady', async () => {
    for (const a of Object.values(ASSETS)) {
      void assetFile(a.file, a.type, 'br', a.load).catch((err: unknown) =>
        app.log.warn({ err, file: a.file }, 'asset warm-up failed'),
      );
    }
  });
  app.get('/assets/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*'];
    const asset = ASSETS[name];
    const data = PDFJS_DATA.exec(name);
    const file = asset?.file ?? (data ? path.join(PDFJS_DIR, data[1]!, data[2]!) : null);
    if (!file || !fs.existsSync(file)) return reply.callNotFound();
    const type = asset?.type ?? (name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream');
    const sent = await assetFile(file, type, request.headers['accept-encoding'], asset?.load);
    reply.header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding').header('etag', sent.etag);
    if (request.headers['if-none-match'] === sent.etag) return reply.status(304).send();
    if (sent.encoding) reply.header('content-encoding', sent.encoding);
    return reply.type(type).send(sent.body);
  });

  const refusalPage = (reply: FastifyReply, lang: Lang, err: SubmissionRefused) => {
    const t = TEXTS[lang];
    return reply
      .status(httpStatusOf(err))
      .type('text/html; charset=utf-8')
      .send(renderMessagePage(lang, t.pdf.document, REFUSAL_TEXT(t, err.reason)));
  };

  app.get('/s/:token', async (request, reply) => {
    const { token } = tokenParams.parse(request.params);
    const lang = requestLang(request);
    try {
      let contractPdf: { bytes: Uint8Array; sha256: string } | undefined;
      // One statement reads the submission, its link, the payment, the files and the earlier typed signature, and
      // writes the audit row (issue 30): no transaction, nothing read twice.
      const opened = await resolveSubmission(ctx.db, token, {
        allowCompleted: true,
        payment: true,
        files: true,
        previousTyped: true,
        audit: { action: 'document.viewed', requestId: request.id, ip: request.ip },
      });
      const { submission, files } = opened;
      const data = await loadDocumentData(ctx.db, opened);
      let documentSha256: string | null = null;
      let previousTyped = null;
      const isId = submission.kind === 'patient_id' || submission.kind === 'payor_id';
      const contract =
        submission.kind === 'contract' ? await contractForSubmission(ctx.db, contractCtx, submission, lang) : null;
      if (!isId && submission.status === 'pending') {
        const original = await buildOriginalPdf(data, lang, { contract: contract?.bytes });
        documentSha256 = sha256Hex(original);
        if (submission.kind === 'contract') contractPdf = { bytes: original, sha256: documentSha256 };
        previousTyped = opened.previousTyped;
        // Offered only to the person it belongs to: someone else may have signed the earlier document.
        if (previousTyped && !signsAs(expectedSigner(data), previousTyped.signerName)) previousTyped = null;
      }
      const page = {
        lang,
        data,
        base: `/s/${token}`,
        parentOrigin: config.publicUrl,
        maxMb,
        documentSha256,
        files,
        contractFallback: contract?.fallback ?? false,
        previousTyped,
      };
      // The contract's text for phones, made off the event loop (issue 30): the frame then
      // loads pdf.js only to show the printed pages.
      const contractParas = contractPdf ? await contractTextInWorker(contractPdf.bytes, contractPdf.sha256) : null;
      const html = renderSigningPage({ ...page, contractText: contractParas });
      return reply.type('text/html; charset=utf-8').send(html);
    } catch (err) {
      if (err instanceof SubmissionRefused) return refusalPage(reply, lang, err);
      throw err;
    }
  });

  /** The original document (what the signer reads and signs), for the PDF viewer and "Open the PDF". */
  app.get('/s/:token/document.pdf', async (request, reply) => {
    const { token } = tokenParams.parse(request.params);
    const lang = requestLang(request);
    const opened = await resolveSubmission(ctx.db, token, {
      payment: true,
      audit: { action: 'document.original_read', requestId: request.id, ip: request.ip },
    });
    const { submission } = opened;
    // ID documents have no original here (and their read wrote no audit row: read-submission.ts).
    if (submission.kind === 'patient_id' || submission.kind === 'payor_id') throw new SubmissionRefused('not_found');
    const data = await loadDocumentData(ctx.db, opened);
    const contract =
      submission.kind === 'contract' ? await contractForSubmission(ctx.db, contractCtx, submission, lang) : null;
    const bytes = await buildOriginalPdf(data, lang, { contract: contract?.bytes });
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline; filename="document.pdf"')
      .send(Buffer.from(bytes));
  });

  app.post('/s/:token/files', async (request, reply) => {
    const { token } = tokenParams.parse(request.params);
    const side = (request.query as { side?: string }).side;
    if (side !== 'front' && side !== 'back') throw new AppError('invalid_request', 'side must be front or back');
    if (!request.isMultipart()) throw new UploadRefused('unreadable', 'upload_not_multipart');
    const part = await request.file();
    if (!part) throw new UploadRefused('unreadable', 'upload_not_multipart');
    const bytes = await part.toBuffer();
    const file = await uploadSubmissionFile(ctx, {
      token,
      side,
      fileName: part.filename || side,
      bytes,
      requestId: request.id,
      ip: request.ip,
    });
    return reply.status(201).send({
      id: file.id,
      side: file.side,
      name: file.original_name,
      mime: file.mime,
      size: file.size_bytes,
      url: `/s/${token}/files/${file.id}`,
    });
  });

  app.get('/s/:token/files/:fileId', async (request, reply) => {
    const { token, fileId } = z
      .object({ token: z.string().max(100), fileId: z.string().max(40) })
      .parse(request.params);
    // The submission, the file and the audit row in one statement (written only when the file is this submission's).
    const { file } = await resolveSubmission(ctx.db, token, {
      fileId,
      audit: { action: 'document.file_read', requestId: request.id, ip: request.ip },
    });
    if (!file) throw new SubmissionRefused('not_found');
    const bytes = await ctx.providers.storage.get(file.storage_key);
    if (!bytes) throw new SubmissionRefused('not_found');
    return reply.type(file.mime).header('content-disposition', 'inline').send(bytes);
  });

  app.post('/s/:token/complete', async (request, reply) => {
    const { token } = tokenParams.parse(request.params);
    const body = completeBody.parse(request.body ?? {});
    const result = await completeSubmission(ctx, {
      token,
      lang: body.lang ?? requestLang(request),
      signerName: body.signerName,
      method: body.method,
      signatureDataUrl: body.signatureDataUrl,
      typedSignature: body.typedSignature,
      documentSha256: body.documentSha256 ?? undefined,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
      requestId: request.id,
    });
    return reply.send({ formID: result.formID });
  });

  return app;
}
