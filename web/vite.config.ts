import preact from '@preact/preset-vite';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

// Two pages: the app (every workspace host) and "find your workspace" (the bare domain).
export default defineConfig({
  root: here,
  base: '/',
  plugins: [preact()],
  build: {
    outDir: resolve(here, '../dist/web'),
    emptyOutDir: true,
    manifest: true,
    // No inline script anywhere: the CSP allows this origin's files only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    rollupOptions: { input: { index: resolve(here, 'index.html'), welcome: resolve(here, 'welcome.html') } },
  },
});
