import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The practice console: its own build, served by the API server under /console (see apps/server/src/app.ts).
// The dev server proxies the API to a running `npm run serve` (port 8080).
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    rolldownOptions: {
      // @paylink/shared's modules only declare things (same reasoning as apps/web).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id) },
    },
  },
  server: {
    port: 5174,
    proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' },
  },
});
