import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as AnalyticsModule from './analytics';

/**
 * The real PostHog library, pointed at a fake capture endpoint: `fetch` is replaced before the library
 * loads (it keeps a reference), and every request it makes is recorded here. The test checks what is
 * sent and, in the raw request bodies, what never is.
 */

interface CapturedRequest {
  url: string;
  body: string;
}

interface SentEvent {
  event: string;
  properties: Record<string, unknown>;
  $set_once?: Record<string, unknown>;
}

const HOST = 'http://127.0.0.1:9';
const SHARE_ID = '5d0c7a2e-9b1f-4c3d-8e6a-2f4b1c9d7e80';
const SECRETS = {
  fileName: 'Quarterly Salaries 2025.xlsx',
  email: 'grace.hopper@example.com',
  subject: 'local|6f1d2c3b-aaaa-bbbb-cccc-123456789abc',
  key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw',
  jwt: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJncmFjZSJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU',
  oauthCode: 'SplxlOBeZQQYbYS6WxSbIA',
};

const requests: CapturedRequest[] = [];
let analytics: typeof AnalyticsModule;

function events(): SentEvent[] {
  return requests
    .filter((r) => new URL(r.url).pathname.includes('/e'))
    .flatMap((r) => (JSON.parse(r.body) as { batch: SentEvent[] }).batch);
}

async function waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until)
      throw new Error(
        `timed out; sent so far: ${events()
          .map((e) => e.event)
          .join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      requests.push({ url, body: typeof init?.body === 'string' ? init.body : '' });
      return Promise.resolve(
        new Response('{"status":1}', { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    }),
  );
  analytics = await import('./analytics');
});

afterAll(() => {
  analytics.stopAnalyticsForTests();
  vi.unstubAllGlobals();
});

describe('analytics', () => {
  it('stays off without a key from the server: nothing is sent', async () => {
    expect(await analytics.initAnalytics(null)).toBe(false);
    expect(await analytics.initAnalytics({ key: ' ', host: HOST })).toBe(false);
    analytics.track('sign_up');
    analytics.trackPageView('/myfiles');
    await analytics.identifyUser(SECRETS.subject);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toEqual([]);
  });

  it('sends page views and product events with buckets and groups, and never names, emails, keys or tokens', async () => {
    // The address bar holds a share id and an OAuth code, as after a redirect.
    window.history.pushState({}, '', `/share/${SHARE_ID}?code=${SECRETS.oauthCode}&state=${SECRETS.jwt}`);
    document.title = SECRETS.fileName;
    expect(
      await analytics.initAnalytics(
        { key: 'phc_test_project', host: HOST },
        {
          requestBatching: false,
          compression: false,
          allowBotUserAgents: true,
          instanceName: 'analytics-test',
        },
      ),
    ).toBe(true);

    analytics.trackPageView(window.location.pathname + window.location.search);
    analytics.track('upload_started', {
      sizeBucket: '10-100MB',
      fileType: 'spreadsheet',
      method: 'direct',
      fileCount: 2,
    });
    // A careless caller: the types forbid these, the sanitiser drops them.
    const careless = {
      sizeBucket: '<1MB',
      fileType: 'pdf',
      method: 'multipart',
      fileName: SECRETS.fileName,
      email: SECRETS.email,
      publicKey: SECRETS.key,
      token: SECRETS.jwt,
      bytes: 52_428_800,
    } as unknown as { sizeBucket: '<1MB'; fileType: 'pdf'; method: 'multipart' };
    analytics.track('upload_completed', careless);
    analytics.track('share', { fileCount: 1, contactCount: 2 });
    analytics.track('upgrade_started');
    await analytics.identifyUser(SECRETS.subject);

    await waitFor(() => events().some((e) => e.event === '$identify'));
    const sent = events();
    expect(sent.map((e) => e.event)).toEqual([
      '$pageview',
      'upload_started',
      'upload_completed',
      'share',
      'upgrade_started',
      '$identify',
    ]);

    const [pageview, started, completed, share] = sent;
    expect(pageview?.properties).toMatchObject({
      $current_url: 'http://localhost:3000/share/:id',
      $pathname: '/share/:id',
    });
    expect(started?.properties).toMatchObject({
      sizeBucket: '10-100MB',
      fileType: 'spreadsheet',
      method: 'direct',
      fileCount: 2,
    });
    expect(completed?.properties).toMatchObject({ sizeBucket: '<1MB', fileType: 'pdf', method: 'multipart' });
    for (const key of ['fileName', 'email', 'publicKey', 'bytes', 'title']) {
      expect(completed?.properties, key).not.toHaveProperty(key);
    }
    expect(share?.properties).toMatchObject({ fileCount: 1, contactCount: 2 });

    // The person is a pseudonym: SHA-256 of the subject, never the subject or the email.
    const identify = sent.at(-1);
    const pseudonym = await analytics.analyticsIdOf(SECRETS.subject);
    expect(pseudonym).toMatch(/^[0-9a-f]{64}$/);
    expect(identify?.properties.distinct_id).toBe(pseudonym);
    expect(identify?.$set_once?.$initial_current_url).toBe('http://localhost:3000/share/:id');

    // Every request went to the configured host only.
    for (const request of requests) expect(new URL(request.url).origin).toBe(HOST);

    // What is never sent, anywhere in any request body.
    const everything = requests.map((r) => r.body).join('\n');
    for (const [what, secret] of Object.entries({ ...SECRETS, shareId: SHARE_ID })) {
      expect(everything.includes(secret), `${what} was sent`).toBe(false);
    }
    expect(everything).not.toContain('code=');
    expect(everything).not.toContain('@example.com');
  });

  it('drops events the app did not send on purpose', async () => {
    const before = events().length;
    const unplanned = analytics as unknown as { track: (event: string, props?: object) => void };
    unplanned.track('$autocapture', { $el_text: SECRETS.email });
    unplanned.track('file_opened', { name: SECRETS.fileName });
    analytics.track('invite_sent');
    await waitFor(() => events().some((e) => e.event === 'invite_sent'));
    expect(
      events()
        .slice(before)
        .map((e) => e.event),
    ).toEqual(['invite_sent']);
  });
});
