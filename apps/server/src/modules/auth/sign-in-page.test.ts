import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressDist } from '../../../../../scripts/compress-dist.js';
import type { AppContext } from '../../context.js';
import { pickEncoding } from '../../http/static-assets.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';

/**
 * /auth?id=<link> names the link's sign-in method in its HTML (decision 0185), so the page's frame and loading state
 * show the sign-in instruction before the JavaScript and the options call; every other page is index.html as built.
 */
const HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Paylink</title></head>' +
  `<body><div id="root"></div><script>${'/* the frame script */ '.repeat(40)}</script></body></html>`;

let dir: string;
let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), HTML);
  await compressDist(dir);
  ({ app, ctx, close } = await createTestApp({ WEB_DIST_DIR: dir }));
});
afterAll(async () => {
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function page(url: string, headers: Record<string, string> = { 'accept-encoding': 'br, gzip' }) {
  const res = await app.inject({ method: 'GET', url, headers });
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  const html =
    encoding === 'br'
      ? brotliDecompressSync(raw).toString()
      : encoding === 'gzip'
        ? gunzipSync(raw).toString()
        : raw.toString();
  return { res, html, method: /<meta name="paylink-sign-in" content="(\w+)" \/>/.exec(html)?.[1] };
}

describe('the sign-in page names the link’s sign-in method in its HTML', () => {
  it.each([
    ['sms', 'br, gzip', 'br'],
    ['email', 'gzip, deflate', 'gzip'],
    ['sms', 'identity', undefined],
  ] as const)('%s link, Accept-Encoding "%s": the method in the head, sent as %s', async (m, accept, sent) => {
    const linkId = await insertTestLink(ctx.db, { method: m });
    const { res, html, method } = await page(`/auth?id=${linkId}`, { 'accept-encoding': accept });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(sent);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(method).toBe(m);
    // The page as built otherwise, with its headers: revalidated, varied by encoding, preloads, the CSP.
    expect(html.replace(/\n\s*<meta name="paylink-sign-in"[^>]*>/, '')).toBe(HTML);
    expect(html.indexOf('paylink-sign-in')).toBeLessThan(html.indexOf('</head>'));
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers.link).toContain('rel=preload');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('answers a revalidation with the same ETag with 304, and another link of the other method with its own page', async () => {
    const sms = await insertTestLink(ctx.db, { method: 'sms' });
    const first = await page(`/auth?id=${sms}`);
    const etag = String(first.res.headers.etag);
    const again = await app.inject({ method: 'GET', url: `/auth?id=${sms}`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const email = await page(`/auth?id=${await insertTestLink(ctx.db, { method: 'email' })}`, {
      'accept-encoding': 'br',
      'if-none-match': etag,
    });
    expect(email.res.statusCode).toBe(200);
    expect(email.method).toBe('email');
  });

  it.each([
    ['no id', () => '/auth'],
    ['a malformed id', () => '/auth?id=abc'],
    ['an unknown id', () => '/auth?id=AbCdEfGhIjKlMnOpQrStUv12'],
    ['an e-mailed sign-in link', async () => `/auth?id=${await insertTestLink(ctx.db)}&mode=signIn&oobCode=x`],
    [
      'a cancelled link',
      async () => {
        const id = await insertTestLink(ctx.db);
        await ctx.db.query(`update link set status = 'cancelled', cancelled_at = now() where id = $1`, [id]);
        return `/auth?id=${id}`;
      },
    ],
    [
      'an expired link',
      async () => {
        const id = await insertTestLink(ctx.db);
        await ctx.db.query(`update link set expires_at = now() - interval '1 minute' where id = $1`, [id]);
        return `/auth?id=${id}`;
      },
    ],
    ['another page', async () => `/patientinfo?id=${await insertTestLink(ctx.db)}`],
  ])('%s: index.html as built, no method', async (_, url) => {
    const { res, html, method } = await page(await url());
    expect(res.statusCode).toBe(200);
    expect(method).toBeUndefined();
    expect(html).toBe(HTML);
  });
});

describe('content encoding negotiation', () => {
  it.each([
    ['br, gzip, deflate', 'br'],
    ['gzip;q=1.0, br;q=0.5', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['*', 'gzip'],
    ['deflate', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});
