import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';

const root = import.meta.dirname;

export default defineConfig({
  root: path.join(root, 'src/web'),
  plugins: [react(), precompress()],
  build: {
    outDir: path.join(root, 'dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    // Which chunk each screen loads, for the benchmark (bench/web.ts); dot folders are not served.
    manifest: true,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/images': 'http://127.0.0.1:3000',
    },
  },
});
