import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompress } from './scripts/vite-precompress.ts';
import { texts } from './src/contract/texts.ts';

const root = import.meta.dirname;

export default defineConfig({
  root: path.join(root, 'src/web'),
  plugins: [
    react(),
    // Installable app: web manifest + a service worker that keeps the app shell and every screen on the device,
    // so the app opens without a network; a new version waits for the worker's tap (src/web/app/app-update.ts).
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icon.svg'],
      manifest: {
        id: '/',
        name: texts.app.title,
        short_name: texts.app.title,
        description: texts.app.description,
        lang: 'de',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        display_override: ['fullscreen', 'standalone'],
        orientation: 'portrait',
        theme_color: '#0b3d91',
        background_color: '#ffffff',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      // Our own worker (src/web/sw.ts): pages network-first, the shell from the device when offline.
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      injectManifest: {
        // The shell and every screen chunk. The camera reader (overlay, polyfill, .wasm) and the test sheet's
        // barcode drawing are fetched when used — never by a handheld that does not need them.
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        globIgnores: ['**/camera-overlay-*', '**/ponyfill-*', '**/test-sheet-images-*'],
        sourcemap: false,
      },
    }),
    precompress(),
  ],
  build: {
    outDir: path.join(root, 'dist/web'),
    emptyOutDir: true,
    // Kept beside each script for reading a handheld's stack trace; the server hands them out only with
    // SERVE_SOURCE_MAPS=true (src/server/http/web.ts). The server's own bundle has its map for
    // --enable-source-maps, which is never served.
    sourcemap: true,
    // Which chunk each screen loads, for the benchmark (bench/web.ts); dot folders are not served.
    manifest: true,
    // Every browser the app runs in (Chromium-based handhelds, current desktop browsers for the Leitstand)
    // has <link rel="modulepreload">: Vite's polyfill for older ones was 0.3 KiB of the first download.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/images': 'http://127.0.0.1:3000',
    },
  },
});
