import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_FILE, type FirstScreenLanguage, type FirstScreenTemplates } from '@paylink/shared';
import { compressDist } from '../../../../../scripts/compress-dist.js';
import type { AppContext } from '../../context.js';
import { createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';

/**
 * /auth?id=<link> with the web build's first-screen templates (decision 0226): the server writes the page's first
 * screen — title, instruction, form, with the practice and the masked phone — before #root, in the language the app
 * will start in as far as a server can tell, so the browser paints it before any script runs.
 */
const HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Paylink</title></head>' +
  `<body><div id="root"></div><script>${'/* the frame script */ '.repeat(40)}</script></body></html>`;

/** Small templates with every slot, one per language (the real ones: apps/web/src/first-screen.ts). */
const lang = (lng: string, title: string): FirstScreenLanguage => ({
  pages: {
    authSms: `<div id="paylink-boot" data-first-screen="${lng}"><div>%%practiceMark%%%%practiceName%%</div><h1>${title} sms</h1><input value="%%phone%%"><footer>%%footerHelp%%</footer></div>`,
    authEmail: `<div id="paylink-boot" data-first-screen="${lng}"><div>%%practiceMark%%%%practiceName%%</div><h1>${title} email</h1><p>from %%practiceName%%</p><footer>%%footerHelp%%</footer></div>`,
  },
  logo: '<img src="%%logoUrl%%">',
  monogram: '<span>%%initial%%</span>',
  help: '<p>Help: %%contacts%%</p>',
  helpPhone: '<a href="%%tel%%">%%phone%%</a>',
  helpEmail: '<a href="mailto:%%email%%">%%email%%</a>',
  helpBetween: ' · ',
});
const TEMPLATES: FirstScreenTemplates = { en: lang('en', 'Verify'), es: lang('es', 'Verifique') };

let dir: string;
let app: FastifyInstance;
let ctx: AppContext;
let close: () => Promise<void>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), HTML);
  fs.writeFileSync(path.join(dir, FIRST_SCREEN_FILE), JSON.stringify(TEMPLATES));
  await compressDist(dir);
  ({ app, ctx, close } = await createTestApp({
    WEB_DIST_DIR: dir,
    PRACTICE_NAME: 'Bella <Vista> & "Co"',
    PRACTICE_PHONE: '5550100123',
    PRACTICE_EMAIL: 'billing@bv.example',
  }));
});
afterAll(async () => {
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function page(url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip', ...headers } });
  const raw = res.rawPayload;
  const encoding = res.headers['content-encoding'];
  const html =
    encoding === 'br'
      ? brotliDecompressSync(raw).toString()
      : encoding === 'gzip'
        ? gunzipSync(raw).toString()
        : raw.toString();
  return { res, html, screen: /<div id="paylink-boot"[\s\S]*?<\/footer><\/div>/.exec(html)?.[0] };
}

describe("/auth's first screen in its HTML", () => {
  it('an SMS link: the screen before #root with the masked phone and the practice, escaped; the phone in the head', async () => {
    const linkId = await insertTestLink(ctx.db, { method: 'sms', phone: '(555) 201-4567' });
    const { res, html, screen } = await page(`/auth?id=${linkId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(screen).toBe(
      '<div id="paylink-boot" data-first-screen="en"><div><span>B</span>Bella &lt;Vista&gt; &amp; &quot;Co&quot;</div>' +
        '<h1>Verify sms</h1><input value="(***) ***-4567"><footer><p>Help: <a href="tel:5550100123">(555) 010-0123</a>' +
        ' · <a href="mailto:billing@bv.example">billing@bv.example</a></p></footer></div>',
    );
    expect(html.indexOf(screen!)).toBeLessThan(html.indexOf('<div id="root">'));
    expect(html).toContain('<meta name="paylink-sign-in" content="sms" data-phone="(***) ***-4567" />');
    expect(html.indexOf('paylink-sign-in')).toBeLessThan(html.indexOf('</head>'));
    // Made for this link: no shared cache keeps it; it varies with the browser's language.
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.vary).toMatch(/accept-language/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    // Read as GET /api/patients/:id/notoken reads it: audited.
    const audit = await ctx.db.query<{ action: string }>('select action from audit_event where link_id = $1', [linkId]);
    expect(audit.rows.map((r) => r.action)).toContain('patient.phone_lookup');
  });

  it('an e-mail link: its screen, no phone', async () => {
    const linkId = await insertTestLink(ctx.db, { method: 'email' });
    const { html, screen } = await page(`/auth?id=${linkId}`, { 'accept-encoding': 'gzip' });
    expect(screen).toContain('<h1>Verify email</h1><p>from Bella &lt;Vista&gt; &amp; &quot;Co&quot;</p>');
    expect(html).toContain('<meta name="paylink-sign-in" content="email" />');
  });

  it.each([
    ['?lng=es', '&lng=es', {}, 'es'],
    ['the i18next cookie', '', { cookie: 'i18next=es' }, 'es'],
    ['the browser’s languages', '', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' }, 'es'],
    ['the browser’s languages before the link’s', '', { 'accept-language': 'en-US' }, 'en'],
    ['no language we have: the link’s', '', { 'accept-language': 'fr-FR,de' }, 'es'],
  ])('the language from %s', async (_, query, headers: Record<string, string>, lng) => {
    const linkId = await insertTestLink(ctx.db, { method: 'sms', language: 'es' });
    const { res, html, screen } = await page(`/auth?id=${linkId}${query}`, headers);
    expect(screen).toContain(`data-first-screen="${lng}"`);
    expect(html).toContain(`<html lang="${lng}">`);
    expect(res.headers.link).toContain(`/locales/${lng}/common.json`);
  });

  it.each([
    ['an unknown id', () => '/auth?id=AbCdEfGhIjKlMnOpQrStUv12'],
    ['an e-mailed sign-in link', async () => `/auth?id=${await insertTestLink(ctx.db)}&mode=signIn&oobCode=x`],
    ['another page', async () => `/patientinfo?id=${await insertTestLink(ctx.db)}`],
  ])('%s: index.html as built', async (_, url) => {
    const { html, screen } = await page(await url());
    expect(screen).toBeUndefined();
    expect(html).toBe(HTML);
  });
});
