import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Served by the console function at /console/ (functions/console/handler.ts): the page names its files under
// /console/assets/ with their content's hash, so they are cached for a year.
export default defineConfig({
  base: '/console/',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Text only (no inlined binary): API Gateway then needs no binary media type for the console.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
