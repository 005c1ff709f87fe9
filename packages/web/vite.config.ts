import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';
import { precompressAssets } from './build/precompress-assets.js';

const workspaceSrc = (pkg: string): string =>
  fileURLToPath(new URL(`../${pkg}/src/index.ts`, import.meta.url));

const workspaceAliases = {
  '@coffer/crypto': workspaceSrc('crypto'),
  '@coffer/contracts': workspaceSrc('contracts'),
};

/** Where the browser loads the download service worker from (`DOWNLOAD_SW_URL`). */
const SERVICE_WORKER_FILE = 'download-sw.js';
const serviceWorkerEntry = fileURLToPath(new URL('./src/sw/download-sw.entry.ts', import.meta.url));

/** The download service worker as one classic script (Firefox and Safari run no module workers). */
async function bundleServiceWorker(minify: boolean): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: workspaceAliases },
    build: {
      write: false,
      minify,
      sourcemap: false,
      lib: { entry: serviceWorkerEntry, formats: ['iife'], name: 'cofferDownloadServiceWorker' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as {
    output: { type: string; code?: string }[];
  }[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (chunk?.code === undefined) throw new Error('The download service worker did not build');
  return chunk.code;
}

/**
 * Builds `src/sw/download-sw.entry.ts` into `/download-sw.js` at the root of the build (a service
 * worker's scope cannot be wider than its script's folder), and serves it the same way in dev.
 */
function downloadServiceWorker(): Plugin {
  return {
    name: 'coffer-download-service-worker',
    async generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: SERVICE_WORKER_FILE,
        source: await bundleServiceWorker(true),
      });
    },
    configureServer(server) {
      server.middlewares.use(`/${SERVICE_WORKER_FILE}`, (_req, res, next) => {
        bundleServiceWorker(false).then((code) => {
          res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(code);
        }, next);
      });
    },
  };
}

/** The API server (and its embedded identity provider) that the dev server forwards to. */
const apiTarget = 'http://localhost:8080';

export default defineConfig({
  // Brotli and gzip copies beside the built files, which the server sends to browsers that accept them.
  plugins: [react(), downloadServiceWorker(), precompressAssets()],
  resolve: {
    // Build from the workspace packages' sources, so the web build does not need them prebuilt.
    alias: workspaceAliases,
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Maps are written for debugging a release, without a sourceMappingURL comment; the server does not
    // serve them unless SERVE_SOURCE_MAPS=true.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // React changes less often than the app: its own chunk stays cached across deploys. Mantine is
        // not grouped: one Mantine chunk put every component of every screen on the first page (~28 KB
        // gzipped more); split by use, each screen carries the components it needs.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/idp': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/idp': { target: apiTarget, changeOrigin: false },
    },
  },
});
