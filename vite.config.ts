import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { firstScreenWords } from './scripts/first-screen-words-plugin.ts';
import { firstScreenChunks } from './scripts/first-screens.ts';
import { serviceWorker } from './scripts/service-worker-plugin.ts';

const page = (file: string) => fileURLToPath(new URL(`src/web/${file}`, import.meta.url));

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [
    react(),
    tailwindcss(),
    firstScreenWords({ webRoot: 'src/web' }),
    // Each script and style also as .br and .gz, which the server sends to a browser that
    // accepts them (the service worker's shell leaves them out).
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|css)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
    serviceWorker({ entry: 'service-worker/service-worker.ts' }),
    {
      // The dev server answers a share link's viewer (/shl) as the product's server does.
      name: 'share-link-viewer',
      configureServer(server) {
        server.middlewares.use((request, _response, next) => {
          if (request.url === '/shl' || request.url?.startsWith('/shl?')) {
            request.url = request.url.replace('/shl', '/shl.html');
          }
          next();
        });
      },
    },
  ],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    // The first screen must stay small: the heavier screens load when they are opened.
    chunkSizeWarningLimit: 250,
    // The app, and a share link's viewer: its own small page, none of the app's code.
    rolldownOptions: {
      input: { main: page('index.html'), shl: page('shl.html') },
      output: {
        // A first screen's own files in one chunk (and those two of them load in one more),
        // not in the dozens automatic splitting makes of them: 45 files and 183 kB for the
        // timeline, 27 files and 167 kB so. Only the product's files are placed, so nothing
        // else moves and no chunk imports back the chunk that imports it.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: firstScreenChunks('src/web', { apart: ['viewer/viewer.tsx'] }),
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
