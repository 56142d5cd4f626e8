import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server proxies the API to a running `npm run serve` (port 8080).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    // scripts/bench.ts reads the chunk graph from dist/.vite/manifest.json.
    manifest: true,
    rolldownOptions: {
      // @paylink/shared's modules only declare things: a page that needs digitsOnly must not pull in every zod schema.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id) },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:8080',
      '/healthz': 'http://localhost:8080',
      '/locales': 'http://localhost:8080',
    },
  },
});
