import type { PluginOption, UserConfig } from 'vite';

/** The API server a dev server proxies to: a running `npm run serve`. */
const API = 'http://localhost:8080';

/**
 * What the patient app and the console build and serve alike (issue 27): one preset, each app adding its own. The
 * apps pass their plugins (React first) since @vitejs/plugin-react is each app's dependency, not the root's.
 * Loaded by Vite's config loader, which bundles this file into each app's config: only type imports here.
 */
export function appShell(opts: {
  /** The dev server's port. */
  port: number;
  plugins: PluginOption[];
  /** Paths the dev server sends to the API server besides /api and /healthz. */
  proxy?: string[];
  base?: string;
}): UserConfig {
  return {
    ...(opts.base ? { base: opts.base } : {}),
    plugins: opts.plugins,
    build: {
      outDir: 'dist',
      sourcemap: false,
      target: 'es2022',
      // scripts/bench.ts reads the chunk graph from dist/.vite/manifest.json.
      manifest: true,
      rolldownOptions: {
        // @paylink/shared's modules only declare things: a page that needs digitsOnly must not pull in every zod schema.
        // And a shared module a page does use (plan-agreement.ts's words) keeps none of its unused schemas: zod's
        // builders are pure (issue 28, decision 0208).
        treeshake: {
          moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id),
          manualPureFunctions: ['z'],
        },
      },
    },
    server: {
      port: opts.port,
      proxy: Object.fromEntries(['/api', '/healthz', ...(opts.proxy ?? [])].map((p) => [p, API])),
    },
  };
}
