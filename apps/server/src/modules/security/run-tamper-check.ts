import { StepRoutes } from '@paylink/shared';
import type { AppContext } from '../../context.js';
import { writeAudit, type Actor } from '../../lib/audit.js';
import { appCspDirectives, cspDifferences, parseCsp } from '../../http/content-security-policy.js';
import { captchaScriptUrl } from '../../providers/captcha/browser-config.js';
import { gatewayBrowserConfig } from '../../providers/gateway/browser-config.js';
import { enqueueMessage } from '../../messages/index.js';
import { cspHash, readScriptInventory, sri } from '../../http/script-inventory.js';

/**
 * PCI DSS 11.6.1 for the payment page (issue 11): fetch the page and its scripts as a browser would, from PUBLIC_URL
 * (through whatever proxy or CDN serves patients), and compare them with the build's script inventory and the
 * security headers the server is configured to send. Any difference is a finding; a check whose findings differ from
 * the previous check's alerts staff (audit `compliance.tamper_detected` + an e-mail to every active admin). Runs on
 * the durable worker every TAMPER_CHECK_INTERVAL and on demand (console, API).
 */
export interface TamperFinding {
  kind:
    | 'page_unreachable'
    | 'not_built'
    | 'index_changed'
    | 'script_changed'
    | 'script_missing'
    | 'unknown_script'
    | 'missing_integrity'
    | 'unknown_inline_script'
    | 'third_party_script_tag'
    | 'external_script_changed'
    | 'external_script_unreachable'
    | 'header_changed'
    | 'header_missing';
  detail: string;
}

export interface TamperCheckResult {
  id: string;
  ranAt: string;
  ok: boolean;
  pageUrl: string;
  findings: TamperFinding[];
  scriptsChecked: number;
  alerted: boolean;
}

type Ctx = Pick<AppContext, 'db' | 'config' | 'log'>;

const BROWSER_HEADERS = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'user-agent':
    'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130 Mobile Safari/537.36',
  'accept-language': 'en-US,en;q=0.9,es;q=0.8',
};

async function get(url: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array } | null> {
  try {
    const r = await fetch(url, { headers: BROWSER_HEADERS, signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    return { status: r.status, headers: r.headers, bytes: new Uint8Array(await r.arrayBuffer()) };
  } catch {
    return null;
  }
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

export async function runTamperCheck(opts: {
  ctx: Ctx;
  trigger: 'schedule' | 'staff';
  actor: Actor;
  webDist: string;
}): Promise<TamperCheckResult> {
  const { ctx } = opts;
  const { config } = ctx;
  const findings: TamperFinding[] = [];
  const hashes: Record<string, string> = {};
  const pageUrl = `${config.publicUrl}${StepRoutes.payment}`;
  const origin = new URL(config.publicUrl).origin;
  const inventory = readScriptInventory(opts.webDist);
  let scriptsChecked = 0;

  const page = await get(pageUrl);
  if (!inventory) {
    findings.push({ kind: 'not_built', detail: 'The patient app has no script inventory: run `npm run build`.' });
  }
  if (!page || page.status !== 200) {
    findings.push({ kind: 'page_unreachable', detail: `${pageUrl} answered ${page ? page.status : 'nothing'}` });
  } else if (inventory) {
    const html = new TextDecoder().decode(page.bytes);
    const { createHash } = await import('node:crypto');
    if (createHash('sha256').update(html).digest('hex') !== inventory.indexSha256) {
      findings.push({ kind: 'index_changed', detail: 'index.html differs from the one built with the inventory' });
    }

    // Security headers as the browser receives them.
    const csp = page.headers.get('content-security-policy');
    if (!csp) findings.push({ kind: 'header_missing', detail: 'Content-Security-Policy' });
    else {
      for (const d of cspDifferences(appCspDirectives(config, inventory), parseCsp(csp))) {
        findings.push({ kind: 'header_changed', detail: `Content-Security-Policy: ${d}` });
      }
    }
    const expectHeader = (name: string, test: (v: string) => boolean, want: string) => {
      const v = page.headers.get(name);
      if (v === null) findings.push({ kind: 'header_missing', detail: `${name} (expected ${want})` });
      else if (!test(v)) findings.push({ kind: 'header_changed', detail: `${name} is "${v}", expected ${want}` });
    };
    expectHeader('x-content-type-options', (v) => v.toLowerCase() === 'nosniff', 'nosniff');
    expectHeader('referrer-policy', (v) => v.toLowerCase() === 'no-referrer', 'no-referrer');
    expectHeader('x-frame-options', (v) => ['deny', 'sameorigin'].includes(v.toLowerCase()), 'DENY or SAMEORIGIN');
    if (pageUrl.startsWith('https:')) {
      expectHeader('strict-transport-security', (v) => /max-age=\d{7,}/.test(v), 'max-age of a year or more');
    }

    // Script tags: ours must be inventoried and carry the inventoried integrity; no third-party tag at all (the
    // gateway's scripts are added by our code at the payment step, from the origins the CSP allows).
    const byPath = new Map(inventory.assets.map((a) => [a.path, a]));
    const tags = [
      ...html.matchAll(/<script\b[^>]*\ssrc="[^"]+"[^>]*>/g),
      ...html.matchAll(/<link\b[^>]*\srel="(?:modulepreload|stylesheet)"[^>]*>/g),
    ].map((m) => m[0]);
    for (const tag of tags) {
      const ref = attr(tag, 'src') ?? attr(tag, 'href');
      if (!ref) continue;
      const url = new URL(ref, pageUrl);
      if (url.origin !== origin) {
        findings.push({ kind: 'third_party_script_tag', detail: url.href });
        continue;
      }
      const known = byPath.get(url.pathname);
      if (!known) findings.push({ kind: 'unknown_script', detail: url.pathname });
      else if (attr(tag, 'integrity') !== known.integrity) {
        findings.push({ kind: 'missing_integrity', detail: `${url.pathname} has no or another integrity attribute` });
      }
    }
    const inlineAllowed = new Set(inventory.inlineScripts.map((s) => s.cspHash));
    for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
      if (!inlineAllowed.has(cspHash(m[1]!))) {
        findings.push({ kind: 'unknown_inline_script', detail: `${m[1]!.slice(0, 80)}…` });
      }
    }
    // Every inventoried file, lazy chunks included (the payment step's code is one), as served.
    for (const a of inventory.assets) {
      const r = await get(`${origin}${a.path}`);
      scriptsChecked++;
      if (!r || r.status !== 200) {
        findings.push({ kind: 'script_missing', detail: `${a.path} answered ${r ? r.status : 'nothing'}` });
        continue;
      }
      hashes[a.path] = sri(r.bytes);
      if (hashes[a.path] !== a.integrity) findings.push({ kind: 'script_changed', detail: a.path });
    }
  }

  // The gateway's scripts (and Turnstile's) are not ours to pin: record their hash and report when it changes.
  const previous = await ctx.db.query<{ findings: TamperFinding[]; script_hashes: Record<string, string> }>(
    'select findings, script_hashes from tamper_check order by ran_at desc, id desc limit 1',
  );
  const before = previous.rows[0];
  const gateway = gatewayBrowserConfig(config);
  const external = [gateway.checkoutJsUrl, gateway.threeDSSdkUrl];
  const captchaScript = captchaScriptUrl(config);
  if (captchaScript) external.push(captchaScript);
  for (const url of external) {
    const r = await get(url);
    scriptsChecked++;
    if (!r || r.status !== 200) {
      findings.push({ kind: 'external_script_unreachable', detail: `${url} answered ${r ? r.status : 'nothing'}` });
      continue;
    }
    hashes[url] = sri(r.bytes);
    const was = before?.script_hashes[url];
    if (was && was !== hashes[url]) {
      findings.push({
        kind: 'external_script_changed',
        detail: `${url} changed since the last check: review the provider's release notes, then run the check again`,
      });
    }
  }

  const ok = findings.length === 0;
  const signature = (f: TamperFinding[]) => JSON.stringify(f.map((x) => `${x.kind}:${x.detail}`).sort());
  // Alert once per new set of findings: a persistent problem is not mailed every day, a new one is.
  const alert = !ok && (!before || signature(before.findings) !== signature(findings));
  const result = await ctx.db.transaction(async (tx) => {
    const row = await tx.query<{ id: string; ran_at: Date }>(
      `insert into tamper_check (trigger, ok, page_url, findings, script_hashes) values ($1, $2, $3, $4, $5)
       returning id::text, ran_at`,
      [opts.trigger, ok, pageUrl, JSON.stringify(findings), JSON.stringify(hashes)],
    );
    await writeAudit(tx, {
      ...opts.actor,
      action: alert ? 'compliance.tamper_detected' : 'compliance.tamper_check',
      details: { ok, findings: findings.length, scriptsChecked, trigger: opts.trigger },
    });
    if (alert) {
      const admins = await tx.query<{ email: string }>(
        `select email from staff_user where role = 'admin' and disabled_at is null`,
      );
      for (const a of admins.rows) {
        await enqueueMessage(tx, {
          channel: 'email',
          kind: 'compliance-alert',
          to: a.email,
          subject: 'Paylink: the payment page changed / la página de pago cambió',
          text: alertText(pageUrl, findings, config.publicUrl),
        });
      }
    }
    return { id: row.rows[0]!.id, ranAt: row.rows[0]!.ran_at.toISOString() };
  });
  if (alert) ctx.log.warn({ findings }, 'payment page tamper check found changes');
  return { ...result, ok, pageUrl, findings, scriptsChecked, alerted: alert };
}

function alertText(pageUrl: string, findings: TamperFinding[], publicUrl: string): string {
  const list = findings.map((f) => `- ${f.kind}: ${f.detail}`).join('\n');
  return [
    `The scheduled check of the payment page (${pageUrl}) found differences from the approved scripts and security headers (PCI DSS 11.6.1):`,
    '',
    list,
    '',
    `If nobody deployed a new version, treat this as a possible compromise: stop sending payment links and call your security contact. Details: ${publicUrl}/console/compliance`,
    '',
    '---',
    '',
    `La revisión programada de la página de pago (${pageUrl}) encontró diferencias con los scripts y encabezados de seguridad aprobados (PCI DSS 11.6.1):`,
    '',
    list,
    '',
    `Si nadie instaló una versión nueva, trátelo como un posible ataque: deje de enviar enlaces de pago y llame a su contacto de seguridad. Detalles: ${publicUrl}/console/compliance`,
  ].join('\n');
}

/**
 * The scheduled check: claims the single schedule row when due (an atomic update, so with several processes on one
 * database exactly one runs it), then runs the check. Returns null when not due.
 */
export async function runScheduledTamperCheck(ctx: Ctx, webDist: string): Promise<TamperCheckResult | null> {
  const every = ctx.config.TAMPER_CHECK_INTERVAL;
  if (every === null) return null;
  await ctx.db.query(
    `insert into tamper_check_schedule (id, next_run_at) values (1, now() + interval '1 minute') on conflict do nothing`,
  );
  const claimed = await ctx.db.query(
    `update tamper_check_schedule set next_run_at = now() + make_interval(secs => $1)
     where id = 1 and next_run_at <= now() returning id`,
    [every],
  );
  if (!claimed.rowCount) return null;
  return runTamperCheck({
    ctx,
    trigger: 'schedule',
    actor: { actorType: 'system', actorId: null, requestId: null, ip: null },
    webDist,
  });
}
