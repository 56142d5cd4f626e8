import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { purgeCSSPlugin } from '@fullhuman/postcss-purgecss';
import fs from 'node:fs';
import { appShell } from '../../config/vite-preset.js';
import { earlyCallsScript } from './src/early-calls.js';
import { BOOT_SHELL_ID, bootShellMarkup, bootShellScript, type BootPage } from './src/boot-shell.js';
import { LINK_ID_PATTERN, SIGN_IN_METHOD_META } from '../../packages/shared/src/ids.js';
import { FIRST_SCREEN_FILE } from '../../packages/shared/src/first-screen.js';
import { firstScreenTemplates, firstScreenTexts } from './src/first-screen.js';
import { PERSIST_STORAGE_KEY } from './src/store/persist-key.js';
import { LANGUAGES } from './src/i18n/index.js';

/**
 * Bootstrap's CSS, only what the app uses (decision 0171): PurgeCSS keeps the selectors whose class names appear in
 * our sources and index.html. Class names Bootstrap's JS or react-bootstrap add at run time are kept by pattern.
 */
const purge = purgeCSSPlugin({
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  safelist: {
    standard: ['show', 'showing', 'hiding', 'fade', 'collapsing', 'active', 'disabled', /^modal/, /^btn-close/],
    deep: [/^card-type/, /^was-validated/],
    greedy: [/^is-(valid|invalid)/, /(in)?valid-(feedback|tooltip)/],
  },
  variables: true,
  keyframes: true,
  fontFace: true,
});

/**
 * The entry stylesheet inlined into index.html: the first paint needs it, and a separate render-blocking request
 * would cost a round trip on a phone. CSS that pages load lazily stays in its own files.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'paylink-inline-entry-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      let source = String(html.source);
      for (const [file, asset] of Object.entries(bundle)) {
        if (asset.type !== 'asset' || !file.endsWith('.css')) continue;
        const tag = new RegExp(
          `<link rel="stylesheet"[^>]*href="/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`,
        );
        if (!tag.test(source)) continue;
        source = source.replace(tag, () => `<style>${String(asset.source)}</style>`);
        delete bundle[file];
      }
      html.source = source;
    },
  };
}

/**
 * The first screen's API calls started by an inline script while index.html is parsed (decision 0180,
 * src/early-calls.ts). Built with the same API base and key the API client is built with; allowed by the CSP through
 * its hash (the script inventory lists it).
 */
function earlyCallsInline(): Plugin {
  let script = '';
  return {
    name: 'paylink-early-calls',
    apply: 'build',
    // config.env is what import.meta.env gives the app: the same base and key as the API client's.
    configResolved(config) {
      const env = config.env as Record<string, string | undefined>;
      script = earlyCallsScript({
        base: (env.VITE_API_BASE || '').replace(/\/+$/, ''),
        key: env.VITE_API_KEY || 'paylink-sandbox-api-key',
        linkIdPattern: LINK_ID_PATTERN.source,
        persistKey: PERSIST_STORAGE_KEY,
      });
    },
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => html.replace('</title>', () => `</title>\n    <script>${script}</script>`),
    },
  };
}

/**
 * The first screen's loading frame painted from the HTML (/patientinfo and /auth, decisions 0184 and 0185,
 * src/boot-shell.ts): an inline script right after `#root`, with the app's own EN/ES texts read from the locale
 * files. Allowed by the CSP through its hash.
 */
function bootShellInline(): Plugin {
  const texts = (lng: string) => {
    const common = JSON.parse(fs.readFileSync(new URL(`./public/locales/${lng}/common.json`, import.meta.url), 'utf8'));
    return bootShellMarkup({
      patientInfoTitle: common.patientInfo.title,
      patientInfoIntro: common.patientInfo.intro,
      loading: common.loading,
      phoneTitle: common.auth.phoneTitle,
      phoneInstruction: common.auth.phoneInstruction,
      emailTitle: common.auth.emailTitle,
      emailInstruction: common.auth.emailInstruction,
    });
  };
  return {
    name: 'paylink-boot-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => {
        const markup: Record<BootPage, Record<string, string>> = {
          patientinfo: Object.fromEntries(LANGUAGES.map((l) => [l, texts(l).patientinfo])),
          authSms: Object.fromEntries(LANGUAGES.map((l) => [l, texts(l).authSms])),
          authEmail: Object.fromEntries(LANGUAGES.map((l) => [l, texts(l).authEmail])),
        };
        const script = bootShellScript({
          markup,
          languages: LANGUAGES,
          persistKey: PERSIST_STORAGE_KEY,
          signInMeta: SIGN_IN_METHOD_META,
          id: BOOT_SHELL_ID,
        });
        return html.replace('<div id="root"></div>', () => `<div id="root"></div>\n    <script>${script}</script>`);
      },
    },
  };
}

/**
 * /auth's first screen as static HTML (decision 0226, src/first-screen.ts): the markup per language, from the app's
 * own EN/ES translations, written to dist/first-screen.json for the server to fill and write into the page.
 */
function firstScreenFile(): Plugin {
  return {
    name: 'paylink-first-screen',
    apply: 'build',
    generateBundle() {
      const templates = Object.fromEntries(
        LANGUAGES.map((lng) => {
          const common = JSON.parse(
            fs.readFileSync(new URL(`./public/locales/${lng}/common.json`, import.meta.url), 'utf8'),
          );
          return [lng, firstScreenTemplates(firstScreenTexts(common), lng)];
        }),
      );
      this.emitFile({ type: 'asset', fileName: FIRST_SCREEN_FILE, source: JSON.stringify(templates) });
    },
  };
}

export default defineConfig(({ command }) => ({
  ...appShell({
    port: 5173,
    plugins: [react(), inlineEntryCss(), earlyCallsInline(), bootShellInline(), firstScreenFile()],
    proxy: ['/locales'],
  }),
  css: command === 'build' ? { postcss: { plugins: [purge] } } : {},
}));
