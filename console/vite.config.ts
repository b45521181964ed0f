import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build: Preact with the automatic JSX runtime, hashed files under /assets/ (served
 * with long cache lifetimes; index.html is never cached), no inline scripts or styles (the
 * Content-Security-Policy allows 'self' only), and no source maps shipped.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
  // `npx vite console` for working on the console: the API of a running `npm run dev` behind /api.
  server: { proxy: { '/api': process.env.CONSOLE_API ?? 'http://localhost:3000' } },
});
