import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const workspaceSrc = (pkg: string): string =>
  fileURLToPath(new URL(`../${pkg}/src/index.ts`, import.meta.url));

/** The API server (and its embedded identity provider) that the dev server forwards to. */
const apiTarget = 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Build from the workspace packages' sources, so the web build does not need them prebuilt.
    alias: {
      '@coffer/crypto': workspaceSrc('crypto'),
      '@coffer/contracts': workspaceSrc('contracts'),
    },
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
