import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompressDir } from './precompress-assets.js';

describe('precompressDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'coffer-precompress-'));
    mkdirSync(join(dir, 'assets'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes .br and .gz beside each text file that compresses, in every folder', async () => {
    const script = `export const text = ${JSON.stringify('encrypted in your browser '.repeat(200))};`;
    writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p>Coffer</p>'.repeat(100)}`);
    const files = await precompressDir(dir);
    expect(files).toHaveLength(2);
    const path = join(dir, 'assets', 'index-abc.js');
    expect(brotliDecompressSync(readFileSync(`${path}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${path}.gz`)).toString()).toBe(script);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    const entry = files.find((f) => f.path === path);
    expect(entry?.brBytes).toBeLessThan(entry?.gzBytes ?? 0);
  });

  it('leaves small files and formats already compressed alone', async () => {
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dir, 'assets', 'logo.png'), Buffer.alloc(4096));
    await precompressDir(dir);
    expect(existsSync(join(dir, 'favicon.svg.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'logo.png.br'))).toBe(false);
    expect(existsSync(join(dir, 'assets', 'logo.png.gz'))).toBe(false);
  });
});
