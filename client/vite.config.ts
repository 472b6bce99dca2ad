/// <reference types="vitest/config" />
// Vite build and dev-server settings plus the Vitest configuration for the client.
import { defineConfig, searchForWorkspaceRoot } from 'vite';
import react from '@vitejs/plugin-react';

const hub = process.env.HUB_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // The palettes are shared with the PDF reports: reports/palettes.json sits outside the client.
    fs: { allow: [searchForWorkspaceRoot(process.cwd()), '../reports/palettes.json'] },
    proxy: {
      '/api': { target: hub, changeOrigin: false },
      '/ws': { target: hub, ws: true },
      '/metrics': { target: hub },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'eslint/**/*.test.ts'],
    css: false,
    // Above the 5 s that `waitFor` may take (src/test/setup.ts), so a slow wait fails as itself.
    testTimeout: 20_000,
  },
});
