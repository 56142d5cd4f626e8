import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { appShell } from '../../config/vite-preset.js';

// The practice console: its own build, served by the API server under /console (see apps/server/src/app.ts).
export default defineConfig(appShell({ base: '/console/', port: 5174, plugins: [react()] }));
