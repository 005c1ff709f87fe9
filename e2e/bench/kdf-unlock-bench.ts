// Key derivation at unlock in headless Chromium (issue 29): Argon2id 64 MiB / 3 passes (hash-wasm's
// WebAssembly, the library @coffer/crypto uses) next to PBKDF2-HMAC-SHA256 600000 (WebCrypto), at
// full speed and with the CPU throttled 4× and 6× through the DevTools protocol
// (Emulation.setCPUThrottlingRate), as a stand-in for a phone-class device.
// Run: `cd e2e && npx tsx bench/kdf-unlock-bench.ts [--repeats=N]`.
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const arg = process.argv.find((a) => a.startsWith('--repeats='));
const REPEATS = arg === undefined ? 5 : Number(arg.slice('--repeats='.length));
const argon2Script = require.resolve('hash-wasm/dist/argon2.umd.min.js', {
  paths: [require.resolve('@coffer/crypto')],
});

// Plain JavaScript run in the page (a string: tsx's helpers do not exist there).
const IN_PAGE = `async (repeats) => {
  const password = new TextEncoder().encode('Correct-Horse-9!');
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const argon = () => hashwasm.argon2id({
    password, salt, parallelism: 1, iterations: 3, memorySize: 65536, hashLength: 32, outputType: 'binary',
  });
  const base = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  const pbkdf2 = () => crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: 600000 }, base, 256);
  const time = async (run) => {
    await run();
    const times = [];
    for (let i = 0; i < repeats; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };
  return { argon: await time(argon), pbkdf2: await time(pbkdf2) };
}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
const page = await browser.newPage();
// A served https page: WebCrypto exists only in a secure context.
await page.route('https://kdf-bench.test/', (route) =>
  route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>kdf bench</title>' }),
);
await page.goto('https://kdf-bench.test/');
await page.addScriptTag({ path: argon2Script });
const cdp = await page.context().newCDPSession(page);
console.log(`kdf bench: Chromium ${browser.version()}, ${REPEATS} derivations per case (after one warm-up)`);
console.log('| CPU | Argon2id 64 MiB, 3 passes (ms, median) | PBKDF2-SHA256 600000 (ms, median) |');
console.log('| --- | ---: | ---: |');
for (const rate of [1, 4, 6]) {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const result = await page.evaluate<{ argon: number; pbkdf2: number }>(`(${IN_PAGE})(${REPEATS})`);
  console.log(
    `| ${rate === 1 ? 'full speed' : `throttled ${rate}×`} | ${result.argon.toFixed(0)} | ${result.pbkdf2.toFixed(0)} |`,
  );
}
await browser.close();
