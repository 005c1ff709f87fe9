import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images other than SVG and fonts (woff2) are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|map)$/;

/** Below this, a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/** What one file became: its size and, for each encoding written, the compressed size. */
export interface PrecompressedFile {
  readonly path: string;
  readonly bytes: number;
  readonly brBytes?: number;
  readonly gzBytes?: number;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (at the strongest settings:
 * done once per build, read on every visit), so the server sends them without compressing per request.
 * A copy that would not be smaller is not written; the server then sends the file as is.
 */
export async function precompressDir(dir: string): Promise<PrecompressedFile[]> {
  const files = (await filesUnder(dir)).filter((path) => COMPRESSIBLE.test(path));
  return Promise.all(
    files.map(async (path): Promise<PrecompressedFile> => {
      const plain = await readFile(path);
      if (plain.length < MIN_BYTES) return { path, bytes: plain.length };
      // Source maps (served only with SERVE_SOURCE_MAPS, to developer tools) are three quarters of the
      // bytes: at the strongest settings they took 12 of this step's 16 s on 2 busy cores; so, 3 s in all.
      const isMap = path.endsWith('.map');
      const [br, gz] = await Promise.all([
        brotli(plain, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: isMap ? 5 : zlibConstants.BROTLI_MAX_QUALITY,
            [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: plain.length,
          },
        }),
        gzipAsync(plain, { level: isMap ? 6 : zlibConstants.Z_BEST_COMPRESSION }),
      ]);
      const result: { path: string; bytes: number; brBytes?: number; gzBytes?: number } = {
        path,
        bytes: plain.length,
      };
      if (br.length < plain.length) {
        await writeFile(`${path}.br`, br);
        result.brBytes = br.length;
      }
      if (gz.length < plain.length) {
        await writeFile(`${path}.gz`, gz);
        result.gzBytes = gz.length;
      }
      return result;
    }),
  );
}

/** Vite plugin: after `vite build` has written everything (public files and the service worker too). */
export function precompressAssets(): Plugin {
  let outDir = '';
  let logger: Logger | undefined;
  return {
    name: 'coffer-precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle(error?: Error) {
      if (error !== undefined) return;
      const files = await precompressDir(outDir);
      const sum = (pick: (f: PrecompressedFile) => number | undefined) =>
        files.reduce((total, f) => total + (pick(f) ?? f.bytes), 0);
      logger?.info(
        `precompressed ${files.length} files: ${sum((f) => f.bytes)} bytes, ` +
          `${sum((f) => f.brBytes)} as br, ${sum((f) => f.gzBytes)} as gzip`,
      );
    },
  };
}
