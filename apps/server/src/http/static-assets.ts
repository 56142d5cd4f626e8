import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  FIRST_SCREEN_FILE,
  escapeHtml,
  renderFirstScreen,
  type FirstScreenPage,
  type FirstScreenTemplates,
  type FirstScreenValues,
} from '@paylink/shared';

/**
 * How a built web app is served (issue 17), for any Vite dist (the patient app at `/`, the console at `/console/`):
 * - Brotli / gzip siblings written at build (scripts/compress-dist.ts) are chosen by `Accept-Encoding`
 *   (`preCompressed`), with `Vary: Accept-Encoding`; identity when the client takes neither.
 * - Hashed files under `assets/` never change under their name: cached for a year, `immutable`.
 * - Everything else (index.html, /locales/…, icons) is `no-cache`: a browser may keep it but revalidates with the
 *   ETag / Last-Modified each time, so a deploy is picked up at once and an unchanged file costs a 304.
 */
/** The built patient app (apps/web/dist); WEB_DIST_DIR overrides it. */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

function cacheControlFor(filePath: string): string {
  const p = filePath.replace(/\\/g, '/').replace(/\.(br|gz)$/, '');
  return /\/assets\/[^/]+$/.test(p) ? IMMUTABLE : REVALIDATE;
}

export async function registerStaticDist(
  app: FastifyInstance,
  opts: { root: string; prefix?: string; decorateReply?: boolean },
) {
  await app.register(fastifyStatic, {
    root: opts.root,
    prefix: opts.prefix ?? '/',
    decorateReply: opts.decorateReply ?? true,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders: (reply: FastifyReply, filePath: string) => {
      reply.header('cache-control', cacheControlFor(filePath));
    },
  });
}

const LANGUAGES = ['en', 'es'] as const;

/**
 * The language the web app's detector will most likely pick (its order: `?lng=`, the `i18next` cookie, then the
 * browser's languages; localStorage we cannot see, but the app writes its choice to the cookie too), so index.html
 * can tell the browser to fetch that language's first namespace while the JavaScript downloads instead of after it
 * runs.
 */
export function guessLanguage(
  request: {
    query: unknown;
    headers: Record<string, string | string[] | undefined>;
  },
  /** What the page's `<html lang>` will say (the app's last source), when the browser names no language we have. */
  fallback = 'en',
): string {
  const pick = (v: unknown) => {
    const l = typeof v === 'string' ? v.toLowerCase().slice(0, 2) : '';
    return (LANGUAGES as readonly string[]).includes(l) ? l : undefined;
  };
  const q = pick((request.query as Record<string, unknown> | undefined)?.lng);
  if (q) return q;
  const cookie = /(?:^|;\s*)i18next=([^;]*)/.exec(String(request.headers.cookie ?? ''))?.[1];
  if (pick(cookie)) return pick(cookie)!;
  for (const part of String(request.headers['accept-language'] ?? '').split(',')) {
    const l = pick(part.trim());
    if (l) return l;
  }
  return pick(fallback) ?? 'en';
}

/** `Link` header value preloading the first i18n namespace (apps/web/src/i18n fetches it with a plain `fetch`). */
export function localePreloadLink(lng: string): string {
  return `</locales/${lng}/common.json>; rel=preload; as=fetch; crossorigin=anonymous`;
}

/**
 * The page module each patient route loads lazily (apps/web/src/app/router.tsx), by its key in Vite's manifest.
 * With these, index.html's response tells the browser to fetch the page's chunks while the entry downloads, instead of
 * after the router has run: one round trip less before the first screen on a slow phone.
 */
export const PAGE_MODULES: Readonly<Record<string, string>> = {
  '/auth': 'src/features/auth/auth-page.tsx',
  '/patientinfo': 'src/features/patient-info/patient-info-page.tsx',
  '/patientinvoicedetail': 'src/features/documents/invoice-page.tsx',
  '/patientiddocs': 'src/features/documents/patient-id-page.tsx',
  '/payoriddocs': 'src/features/documents/payor-id-page.tsx',
  '/patientcontract': 'src/features/documents/contract-page.tsx',
  '/paymentauthorization': 'src/features/payment/payment-authorization-page.tsx',
  '/confirmation': 'src/features/confirmation/confirmation-page.tsx',
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/**
 * `Link` values (`rel=modulepreload`) per route path, from the build's manifest: the page's chunk and the chunks it
 * imports, less what index.html already loads. Empty when there is no manifest (a build without one still works).
 */
export function pageModulePreloads(webDist: string): (pathname: string) => string[] {
  let manifest: Record<string, ManifestChunk>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(webDist, '.vite/manifest.json'), 'utf8')) as typeof manifest;
  } catch {
    return () => [];
  }
  const loadedByEntry = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const k of manifest[key].imports ?? []) walk(k, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key, loadedByEntry);
  const byRoute = new Map<string, string[]>();
  for (const [route, key] of Object.entries(PAGE_MODULES)) {
    const keys = new Set<string>();
    walk(key, keys);
    const files = [...keys].filter((k) => !loadedByEntry.has(k)).map((k) => manifest[k]!.file);
    byRoute.set(
      route,
      files.filter((f) => f.endsWith('.js')).map((f) => `</${f}>; rel=modulepreload`),
    );
  }
  return (pathname) => byRoute.get(pathname) ?? [];
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli and gzip of one body, and its weak ETag (the same for every encoding). */
async function compressAll(
  identity: Buffer,
  brotliQuality: number,
): Promise<{ br: Buffer; gzip: Buffer; etag: string }> {
  const [br, gz] = await Promise.all([
    brotliAsync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality } }),
    gzipAsync(identity, { level: 9 }),
  ]);
  return { br, gzip: gz, etag: weakEtag(identity) };
}

const weakEtag = (body: Buffer) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** The content encoding to send for an `Accept-Encoding` header: Brotli, else gzip, else none (`q=0` refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of String(acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  return accepted.has('br') ? 'br' : accepted.has('gzip') || accepted.has('*') ? 'gzip' : undefined;
}

export interface HtmlVariant {
  body: Buffer;
  encoding: 'br' | 'gzip' | undefined;
  /** Weak: the same for every encoding of one variant. */
  etag: string;
}

/**
 * A built index.html with one extra tag in its head per key (decision 0185: the sign-in page's method), compressed
 * as the build compresses the file itself, once, on the variant's first use; `get(key, acceptEncoding)` gives the
 * bytes to send, or null for an unknown key or an unreadable file.
 */
export function htmlVariants(
  indexFile: string,
  tags: Readonly<Record<string, string>>,
): (key: string, acceptEncoding: string | undefined) => Promise<HtmlVariant | null> {
  type Built = Record<'br' | 'gzip' | 'identity', Buffer> & { etag: string };
  const built = new Map<string, Promise<Built | null>>();
  const build = async (tag: string): Promise<Built | null> => {
    const html = await fs.promises.readFile(indexFile, 'utf8').catch(() => null);
    if (html === null) return null;
    const source = html.includes('</title>')
      ? html.replace('</title>', () => `</title>\n    ${tag}`)
      : html.replace('</head>', () => `${tag}</head>`);
    const identity = Buffer.from(source);
    return { identity, ...(await compressAll(identity, zlibConstants.BROTLI_MAX_QUALITY)) };
  };
  return async (key, acceptEncoding) => {
    const tag = Object.hasOwn(tags, key) ? tags[key] : undefined;
    if (tag === undefined) return null;
    let variant = built.get(key);
    if (!variant) built.set(key, (variant = build(tag).catch(() => null)));
    const v = await variant;
    if (!v) return null;
    const encoding = pickEncoding(acceptEncoding);
    return { body: v[encoding ?? 'identity'], encoding, etag: v.etag };
  };
}

/** Sends a variant with index.html's caching headers (revalidated, varied by encoding; 304 to a matching ETag). */
export function sendHtmlVariant(
  request: { headers: Record<string, string | string[] | undefined> },
  reply: FastifyReply,
  page: HtmlVariant,
  /** A page made for one link and one browser (decision 0226): kept by no shared cache, varied by language too. */
  personal = false,
): FastifyReply {
  reply
    .header('cache-control', personal ? `private, ${REVALIDATE}` : REVALIDATE)
    .header('vary', personal ? 'accept-encoding, accept-language, cookie' : 'accept-encoding')
    .header('etag', page.etag);
  if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  if (page.encoding) reply.header('content-encoding', page.encoding);
  return reply.type('text/html; charset=utf-8').send(page.body);
}

/**
 * /auth's HTML with its first screen written in (decision 0226): the built index.html with a tag in its head, the
 * page's language on `<html>`, and the screen (the web build's `first-screen.json` filled with `values`) before
 * `#root`. The screen carries the link's masked phone, so the page is compressed per request, at a quality that costs
 * about a millisecond (Brotli 5, gzip 6) instead of the build's 11. Null when the build has no templates for this
 * language and page (an older build: the caller serves the page without the screen).
 */
export function firstScreenPages(
  webDist: string,
): (opts: {
  page: FirstScreenPage;
  lng: string;
  values: FirstScreenValues;
  headTag: string;
  acceptEncoding: string | undefined;
}) => Promise<HtmlVariant | null> {
  type Source = { html: string; templates: FirstScreenTemplates };
  let source: Promise<Source | null> | undefined;
  const load = async (): Promise<Source | null> => {
    try {
      const [html, templates] = await Promise.all([
        fs.promises.readFile(path.join(webDist, 'index.html'), 'utf8'),
        fs.promises.readFile(path.join(webDist, FIRST_SCREEN_FILE), 'utf8'),
      ]);
      return html.includes('<div id="root">')
        ? { html, templates: JSON.parse(templates) as FirstScreenTemplates }
        : null;
    } catch {
      return null;
    }
  };
  return async ({ page, lng, values, headTag, acceptEncoding }) => {
    const src = await (source ??= load());
    const screen = src && renderFirstScreen(src.templates, lng, page, values);
    if (!src || !screen) return null;
    const html = src.html
      .replace(/<html lang="[^"]*"/, () => `<html lang="${escapeHtml(lng)}"`)
      .replace('</title>', () => `</title>\n    ${headTag}`)
      .replace('<div id="root">', () => `${screen}\n    <div id="root">`);
    const identity = Buffer.from(html);
    const encoding = pickEncoding(acceptEncoding);
    const body =
      encoding === 'br'
        ? await brotliAsync(identity, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length,
            },
          })
        : encoding === 'gzip'
          ? await gzipAsync(identity, { level: 6 })
          : identity;
    return { body, encoding, etag: weakEtag(identity) };
  };
}

/** Content types worth compressing (fonts in pdf.js's folders are already compressed formats or tiny). */
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|wasm))/;

/**
 * A file served from a package or an assets folder (the signing service's pdf.js, signature pad, sign.js):
 * compressed with Brotli and gzip once, on its first request, and kept in memory with its ETag (issue 30: pdf.js was
 * 430 KB sent uncompressed, 62 % of a journey's bytes). `get(file, type, acceptEncoding, load?)` gives what to send;
 * `load` turns the file into what is sent (sign.ts compiled to JavaScript), else it is sent as is.
 */
export function compressedFiles(): (
  file: string,
  type: string,
  acceptEncoding: string | undefined,
  load?: (file: string) => Promise<Buffer>,
) => Promise<HtmlVariant> {
  type Built = Partial<Record<'br' | 'gzip', Buffer>> & { identity: Buffer; etag: string };
  const built = new Map<string, Promise<Built>>();
  const build = async (file: string, type: string, load: (file: string) => Promise<Buffer>): Promise<Built> => {
    const identity = await load(file);
    if (!COMPRESSIBLE.test(type) || identity.length < 1024) return { identity, etag: weakEtag(identity) };
    // Quality 9, not 11: pdf.js and its worker (1.7 MB) take 0.24 s instead of 4 s for 10 % more bytes, on the first
    // request of a process (the apps' own files are compressed at build, at 11).
    return { identity, ...(await compressAll(identity, 9)) };
  };
  return async (file, type, acceptEncoding, load = (f) => fs.promises.readFile(f)) => {
    let entry = built.get(file);
    if (!entry) {
      built.set(file, (entry = build(file, type, load)));
      // A failed read is not kept: the next request tries again.
      entry.catch(() => built.delete(file));
    }
    const v = await entry;
    const wanted = pickEncoding(acceptEncoding);
    const encoding = wanted && v[wanted] ? wanted : undefined;
    return { body: encoding ? v[encoding]! : v.identity, encoding, etag: v.etag };
  };
}
