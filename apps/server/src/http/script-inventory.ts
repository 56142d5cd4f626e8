import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * PCI DSS v4.0.1 requirement 6.4.3 for the payment page (issue 11): every script the page may run is inventoried with
 * its justification and its integrity. At build time (`npm run build` → scripts/script-inventory.ts) the patient
 * app's dist gets:
 * - `integrity` (SHA-384 Subresource Integrity) on every script, module preload and stylesheet tag of index.html;
 * - an import map whose `integrity` section covers every JavaScript chunk, so the chunks the app imports lazily (the
 *   payment page's own code among them) are checked by the browser too;
 * - `script-inventory.json`: each chunk by path and hash, each inline script by its CSP hash.
 * The server reads the file at boot: its CSP allows the import map by hash, and staff read the inventory (with the
 * gateway's scripts from config) at GET /api/admin/compliance/scripts. The tamper check compares what the page serves
 * with it.
 */
const INVENTORY_FILE = 'script-inventory.json';

export interface InventoryAsset {
  /** URL path as the page loads it, e.g. /assets/index-abc123.js. */
  path: string;
  kind: 'script' | 'style';
  /** How the page loads it: the entry, a module preloaded with the entry, or a chunk imported when a page needs it. */
  loadedAs: 'entry' | 'preload' | 'lazy' | 'stylesheet';
  integrity: string;
  bytes: number;
  justification: string;
}

export interface ScriptInventory {
  generatedAt: string;
  /** CSP hash sources ('sha256-…') of the inline scripts of index.html (the import map, the early API calls). */
  inlineScripts: { purpose: string; cspHash: string }[];
  assets: InventoryAsset[];
  /** SHA-256 of the final index.html, so a changed page is noticed even when every script is unchanged. */
  indexSha256: string;
}

export const sri = (bytes: Uint8Array | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
export const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const ASSET_TAG = /<(script|link)\b([^>]*?)\s(src|href)="(\/assets\/[^"?#]+)"([^>]*)>/g;
const IMPORT_MAP = /<script type="importmap">[\s\S]*?<\/script>\s*/g;
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** Adds SRI and the import map to a built dist's index.html and writes its inventory. Safe to run twice. */
export function buildScriptInventory(distDir: string, now = new Date()): ScriptInventory {
  const indexPath = path.join(distDir, 'index.html');
  let html = fs
    .readFileSync(indexPath, 'utf8')
    .replace(IMPORT_MAP, '')
    .replace(/\sintegrity="[^"]*"/g, '');
  const assetsDir = path.join(distDir, 'assets');
  const files = fs.existsSync(assetsDir)
    ? fs
        .readdirSync(assetsDir)
        .filter((f) => /\.(m?js|css)$/.test(f))
        .sort()
    : [];
  const integrityOf = new Map<string, { integrity: string; bytes: number }>();
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(assetsDir, f));
    integrityOf.set(`/assets/${f}`, { integrity: sri(bytes), bytes: bytes.length });
  }

  const loadedAs = new Map<string, InventoryAsset['loadedAs']>();
  html = html.replace(ASSET_TAG, (tag, name: string, before: string, attr: string, url: string, after: string) => {
    const known = integrityOf.get(url);
    if (!known) return tag;
    const rel = /\srel="([^"]+)"/.exec(tag)?.[1];
    loadedAs.set(url, name === 'script' ? 'entry' : rel === 'modulepreload' ? 'preload' : 'stylesheet');
    const crossorigin = /\scrossorigin\b/.test(tag) ? '' : ' crossorigin';
    return `<${name}${before} ${attr}="${url}" integrity="${known.integrity}"${crossorigin}${after}>`;
  });

  const jsIntegrity = Object.fromEntries(
    [...integrityOf].filter(([url]) => /\.m?js$/.test(url)).map(([url, v]) => [url, v.integrity]),
  );
  const importMap = JSON.stringify({ integrity: jsIntegrity });
  const mapTag = `<script type="importmap">${importMap}</script>`;
  // An import map must come before the first module script of the page.
  const firstModule = html.search(/<script\b[^>]*type="module"|<link\b[^>]*rel="modulepreload"/);
  html = firstModule >= 0 ? `${html.slice(0, firstModule)}${mapTag}\n    ${html.slice(firstModule)}` : html;
  fs.writeFileSync(indexPath, html);

  const inlineScripts = [...html.matchAll(INLINE_SCRIPT)].map((m) => ({
    purpose:
      m[1] === importMap
        ? 'import map: integrity of every JavaScript chunk'
        : m[1]!.includes('__paylinkEarlyCalls')
          ? "first screen's API calls started with the page (apps/web/src/early-calls.ts, decision 0180)"
          : m[1]!.includes('paylink-boot')
            ? "first screen's loading frame painted from the HTML (apps/web/src/boot-shell.ts, decision 0184)"
            : 'inline script',
    cspHash: cspHash(m[1]!),
  }));
  const assets: InventoryAsset[] = [...integrityOf].map(([url, v]) => {
    const kind = url.endsWith('.css') ? 'style' : 'script';
    const how = loadedAs.get(url) ?? (kind === 'style' ? 'stylesheet' : 'lazy');
    return {
      path: url,
      kind,
      loadedAs: how,
      integrity: v.integrity,
      bytes: v.bytes,
      justification:
        how === 'entry'
          ? 'Paylink patient app: entry module (React, router, sign-in)'
          : how === 'preload'
            ? 'Paylink patient app: module preloaded with the entry'
            : kind === 'style'
              ? 'Paylink patient app: stylesheet of a page'
              : 'Paylink patient app: code of a page or feature, imported when the patient reaches it',
    };
  });
  const inventory: ScriptInventory = {
    generatedAt: now.toISOString(),
    inlineScripts,
    assets,
    indexSha256: createHash('sha256').update(html).digest('hex'),
  };
  fs.writeFileSync(path.join(distDir, INVENTORY_FILE), `${JSON.stringify(inventory, null, 2)}\n`);
  return inventory;
}

/** The inventory written at build, or null when the app is not built. */
export function readScriptInventory(distDir: string): ScriptInventory | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(distDir, INVENTORY_FILE), 'utf8')) as ScriptInventory;
  } catch {
    return null;
  }
}
