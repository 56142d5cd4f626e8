import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { admin } from './admin.js';
import { PRODUCT_ROOT, type RunningProduct } from './server.js';
import { eventually } from './wait.js';

/** The demo coordinator that `npm start` prints in sandbox mode (e-mail and password). */
export async function demoCoordinator(product: RunningProduct): Promise<{ email: string; password: string }> {
  return eventually(
    () => {
      const out = product.output();
      const email = /demo coordinator:\s+(\S+@\S+)/.exec(out)?.[1];
      const password = /password:\s+(\S+)/.exec(out.slice(out.indexOf('demo coordinator')))?.[1];
      return email && password ? { email, password } : undefined;
    },
    { timeout: 20_000, message: 'the demo coordinator in the start-up report' },
  );
}

/** A staff member created through the admin API (the sandbox admin token), to sign in to the console. */
export async function createStaff(
  product: RunningProduct,
  role: 'admin' | 'coordinator' | 'billing',
): Promise<{ email: string; password: string; name: string }> {
  const tag = Math.random().toString(36).slice(2, 8);
  const user = {
    email: `${role}.${tag}@practice.example`,
    password: `pw-${tag}-long-enough`,
    name: `Test ${role} ${tag}`,
  };
  await admin(product, 'POST', '/staff', { ...user, role });
  return user;
}

/** Signs in on /console/sign-in (password step; the code step when `code` is given) and waits for the board. */
export async function consoleSignIn(
  page: Page,
  product: RunningProduct,
  who: { email: string; password: string },
  opts: { code?: () => string; lng?: 'en' | 'es' } = {},
): Promise<void> {
  await page.goto(`${product.baseUrl}/console/sign-in`);
  const es = opts.lng === 'es';
  await page.getByLabel(es ? 'Correo electrónico' : 'E-mail').fill(who.email);
  await page.getByLabel(es ? 'Contraseña' : 'Password').fill(who.password);
  await page.getByRole('button', { name: es ? 'Iniciar sesión' : 'Sign in' }).click();
  if (opts.code) {
    await page.getByLabel(es ? 'Código de la aplicación' : 'Code from the app').fill(opts.code());
    await page.getByRole('button', { name: es ? 'Verificar' : 'Verify' }).click();
  }
  await page.getByRole('heading', { level: 1, name: es ? 'Enlaces' : 'Links' }).waitFor();
}

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) from a base32 secret, as an authenticator app computes it. */
export function totp(secretBase32: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const h = createHmac('sha1', key).update(counter).digest();
  const o = h[h.length - 1]! & 0xf;
  const n = (h.readUInt32BE(o) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, '0');
}

/** WCAG 2.2 SC 1.4.12 text spacing, as a user's style sheet would force it (the bookmarklet's values). */
export const WCAG_TEXT_SPACING = `* {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p {
  margin-bottom: 2em !important;
}`;

/** English texts the server has sent to the console before (issue 29, item 11): never on a Spanish screen. */
const ENGLISH_SERVER_TEXTS = [
  /^(Patient|System|Staff)$/,
  /\bDECLINED\b/,
  /\b(declined|threeDSFailed)$/,
  /^Paylink patient app:/,
  /^Converge Checkout\.js: sends/,
  /^Elavon 3-D Secure web SDK:/,
  /^Cloudflare Turnstile: captcha before/,
  /\b(error|transaction) [\w-]*\d[\w-]*$/,
  /^Importe\b/,
];

let english: Promise<RegExp[]> | undefined;
/**
 * What must not show on a Spanish console screen: every value of the console's English catalogue whose Spanish value
 * (same key) differs, as an exact match (a `{{placeholder}}` matches anything), and the known English server texts.
 * The catalogues are TypeScript modules of the console: read with tsx, as the build reads them.
 */
export function englishOnlyTexts(): Promise<RegExp[]> {
  english ??= new Promise<RegExp[]>((resolve, reject) => {
    const script =
      "const { en } = await import('./apps/console/src/shared/i18n/en.ts');" +
      "const { es } = await import('./apps/console/src/shared/i18n/es.ts');" +
      'process.stdout.write(JSON.stringify({ en, es }));';
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: PRODUCT_ROOT, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout) => {
        if (err) return reject(err);
        const { en, es } = JSON.parse(stdout) as { en: object; es: object };
        resolve([...differing(en, es)].map(asPattern).concat(ENGLISH_SERVER_TEXTS));
      },
    );
  });
  return english;
}

function* differing(en: unknown, es: unknown): Generator<string> {
  if (typeof en === 'string') {
    // A value that is mostly placeholders ("{{name}}", "{{n}} %") would match any text: not a word to look for.
    const words = en.replace(/\{\{\w+\}\}/g, '').replace(/[^A-Za-z]/g, '');
    if (en !== es && words.length >= 3) yield en;
    return;
  }
  if (!en || typeof en !== 'object') return;
  for (const [k, v] of Object.entries(en)) yield* differing(v, (es as Record<string, unknown> | undefined)?.[k]);
}

/** A catalogue value as an exact, whole-text pattern; `{{x}}` stands for any text. */
function asPattern(value: string): RegExp {
  const parts = value
    .trim()
    .split(/\{\{\w+\}\}/)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}
