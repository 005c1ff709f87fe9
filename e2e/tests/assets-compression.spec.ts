import { expect, test, type Response } from '@playwright/test';

/**
 * The built app is served pre-compressed (`npm run build` writes `.br` and `.gz` beside each file): the
 * signed-out first page's scripts arrive encoded, and the page still works from them. The byte totals it
 * logs are the figures in docs/benchmarks.md ("The page's own bytes").
 */

interface Arrival {
  readonly path: string;
  readonly type: string;
  readonly encoding: string | undefined;
  readonly vary: string;
  /** Bytes on the wire (body as sent, headers included). */
  readonly sent: number;
  /** Bytes of the body once decoded. */
  readonly decoded: number;
}

async function arrivalOf(response: Response): Promise<Arrival> {
  const [headers, sizes, body] = await Promise.all([
    response.allHeaders(),
    response.request().sizes(),
    response.body(),
  ]);
  return {
    path: new URL(response.url()).pathname,
    type: response.request().resourceType(),
    encoding: headers['content-encoding'],
    vary: headers.vary ?? '',
    sent: sizes.responseBodySize + sizes.responseHeadersSize,
    decoded: body.length,
  };
}

test('the signed-out first page arrives compressed, and works', async ({ page, baseURL }) => {
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (baseURL !== undefined && response.url().startsWith(baseURL)) responses.push(response);
  });
  await page.goto('/');
  // The page works from the decoded scripts: the landing page rendered, its links lead on.
  await expect(page.getByRole('link', { name: 'Create account' }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const arrivals = await Promise.all(responses.map(arrivalOf));
  const scripts = arrivals.filter((a) => a.type === 'script');
  const total = (list: readonly Arrival[], size: 'sent' | 'decoded') =>
    list.reduce((sum, a) => sum + a[size], 0);
  const summary = {
    requests: arrivals.length,
    scripts: scripts.length,
    sentBytes: total(arrivals, 'sent'),
    decodedBytes: total(arrivals, 'decoded'),
    scriptSentBytes: total(scripts, 'sent'),
    scriptDecodedBytes: total(scripts, 'decoded'),
    encodings: [...new Set(arrivals.map((a) => a.encoding ?? 'identity'))],
  };
  test.info().annotations.push({ type: 'first-page-bytes', description: JSON.stringify(summary) });
  console.log(`first page (signed out): ${JSON.stringify(summary)}`);

  expect(scripts.length).toBeGreaterThan(0);
  // Every script worth compressing (the build skips files under 1 KiB) came encoded, varying on it.
  const worthIt = scripts.filter((s) => s.decoded >= 1024);
  expect(worthIt.length).toBeGreaterThan(0);
  for (const script of worthIt) {
    expect(['br', 'gzip'], script.path).toContain(script.encoding);
    expect(script.vary.toLowerCase(), script.path).toContain('accept-encoding');
  }
  // The app's page itself (index.html, served for every deep link) too.
  const documentArrival = arrivals.find((a) => a.type === 'document');
  expect(documentArrival?.encoding).toMatch(/^(br|gzip)$/);
  // Compressed, the scripts take well under half their size (gzip takes JS to about a third).
  expect(summary.scriptSentBytes).toBeLessThan(summary.scriptDecodedBytes / 2);
});

test('a client that accepts no encoding gets the plain files', async ({ request }) => {
  const html = await request.get('/', { headers: { 'accept-encoding': 'identity' } });
  expect(html.status()).toBe(200);
  expect(html.headers()['content-encoding']).toBeUndefined();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(await html.text())?.[1];
  expect(script).toBeDefined();
  const plain = await request.get(script ?? '', { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(plain.headers()['content-type']).toMatch(/javascript/);
  const brotli = await request.get(script ?? '', { headers: { 'accept-encoding': 'br' } });
  expect(brotli.headers()['content-encoding']).toBe('br');
  expect(brotli.headers()['content-type']).toMatch(/javascript/);
  expect(brotli.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  // The download service worker's script, fetched at its fixed address, is compressed the same way.
  const worker = await request.get('/download-sw.js', { headers: { 'accept-encoding': 'gzip' } });
  expect(worker.headers()['content-encoding']).toBe('gzip');
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(await worker.text()).toContain('__coffer_download__');
});
