import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressDist } from '../../../../scripts/compress-dist.js';
import {
  IMMUTABLE,
  PAGE_MODULES,
  guessLanguage,
  localePreloadLink,
  pageModulePreloads,
  registerStaticDist,
} from './static-assets.js';

/** A raw GET over real HTTP (node:http does not decompress, so we see what the wire carries). */
function get(origin: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(origin + url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const JS = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const HTML = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<div id="root"></div>'.repeat(30)}</body></html>`;
const LOCALE = JSON.stringify(
  Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, `Text number ${i}`])),
);

describe('built web app over HTTP (precompressed, cache headers)', () => {
  let dir: string;
  let app: FastifyInstance;
  let origin: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-dist-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.mkdirSync(path.join(dir, 'locales/en'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), HTML);
    fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js'), JS);
    fs.writeFileSync(path.join(dir, 'locales/en/common.json'), LOCALE);
    await compressDist(dir);

    app = Fastify();
    // Generic: the same helper serves a second app under a prefix (the console at /console/).
    await registerStaticDist(app, { root: dir });
    await app.register(async (scope) =>
      registerStaticDist(scope, { root: dir, prefix: '/console/', decorateReply: false }),
    );
    app.setNotFoundHandler(async (_req, reply) => reply.sendFile('index.html'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address() as { port: number };
    origin = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes Brotli and gzip siblings that decompress to the original', () => {
    const src = fs.readFileSync(path.join(dir, 'assets/index-AbC123.js'));
    expect(brotliDecompressSync(fs.readFileSync(path.join(dir, 'assets/index-AbC123.js.br')))).toEqual(src);
    expect(gunzipSync(fs.readFileSync(path.join(dir, 'assets/index-AbC123.js.gz')))).toEqual(src);
  });

  it('sends Brotli to a browser that accepts it, gzip to one that takes only gzip, identity otherwise', async () => {
    const br = await get(origin, '/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).toString()).toBe(JS);
    expect(br.body.length).toBeLessThan(JS.length / 4);

    const gz = await get(origin, '/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(JS);

    const plain = await get(origin, '/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(JS);
  });

  it('caches hashed assets for a year as immutable, whatever the encoding', async () => {
    for (const enc of ['br', 'gzip', 'identity']) {
      const r = await get(origin, '/assets/index-AbC123.js', { 'accept-encoding': enc });
      expect(r.headers['cache-control']).toBe(IMMUTABLE);
    }
  });

  it('revalidates index.html on every visit, also when served for a client route', async () => {
    const direct = await get(origin, '/index.html', { 'accept-encoding': 'br' });
    expect(direct.headers['cache-control']).toBe('no-cache');
    const route = await get(origin, '/l/SOMELINK/auth', { 'accept-encoding': 'br' });
    expect(route.status).toBe(200);
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(route.body).toString()).toBe(HTML);
  });

  it('lets a browser keep a locale file and answers its revalidation with 304', async () => {
    const first = await get(origin, '/locales/en/common.json', { 'accept-encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.etag).toBeTruthy();
    const again = await get(origin, '/locales/en/common.json', {
      'accept-encoding': 'br',
      'if-none-match': first.headers.etag!,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves a second dist under a prefix with the same rules', async () => {
    const r = await get(origin, '/console/assets/index-AbC123.js', { 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe(IMMUTABLE);
  });
});

describe('first i18n namespace preload', () => {
  it('follows ?lng=, then the i18next cookie, then the browser languages, else English', () => {
    const req = (query: Record<string, string>, headers: Record<string, string>) => ({ query, headers });
    expect(guessLanguage(req({ lng: 'es' }, { 'accept-language': 'en-US' }))).toBe('es');
    expect(guessLanguage(req({}, { cookie: 'a=1; i18next=es', 'accept-language': 'en' }))).toBe('es');
    expect(guessLanguage(req({}, { 'accept-language': 'fr-FR, es-MX;q=0.8, en;q=0.5' }))).toBe('es');
    expect(guessLanguage(req({ lng: 'xx' }, {}))).toBe('en');
    expect(localePreloadLink('es')).toBe('</locales/es/common.json>; rel=preload; as=fetch; crossorigin=anonymous');
  });
});

describe('page chunk preloads', () => {
  it("lists the route's page chunk and what it imports, less what index.html loads, from the build manifest", () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-manifest-'));
    fs.mkdirSync(path.join(dist, '.vite'));
    const manifest = {
      'index.html': { file: 'assets/index-A.js', imports: ['_layout-B.js'], isEntry: true },
      '_layout-B.js': { file: 'assets/layout-B.js' },
      '_amounts-C.js': { file: 'assets/amounts-C.js', imports: ['_layout-B.js'] },
      '_steps-D.css': { file: 'assets/steps-D.css' },
      'src/features/auth/auth-page.tsx': {
        file: 'assets/auth-page-E.js',
        imports: ['_layout-B.js', 'index.html', '_amounts-C.js', '_steps-D.css'],
      },
    };
    fs.writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
    const preloads = pageModulePreloads(dist);
    expect(preloads('/auth')).toEqual([
      '</assets/auth-page-E.js>; rel=modulepreload',
      '</assets/amounts-C.js>; rel=modulepreload',
    ]);
    expect(preloads('/patientinfo')).toEqual([]); // not in this manifest
    expect(preloads('/nothing')).toEqual([]);
    expect(pageModulePreloads(path.join(dist, 'missing'))('/auth')).toEqual([]);
  });

  it('names page modules that exist in the web app, so a renamed page is noticed here', () => {
    const web = path.resolve(import.meta.dirname, '../../../web');
    for (const file of Object.values(PAGE_MODULES)) expect(fs.existsSync(path.join(web, file)), file).toBe(true);
  });
});
