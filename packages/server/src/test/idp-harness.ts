/**
 * The embedded identity provider under test: the whole app listening on a loopback port (the issuer is
 * a real URL), a cookie-keeping HTTP client that plays the browser, the web app's PKCE steps, and a
 * second oidc-provider on loopback that plays Google.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import type { AccountClaims, Configuration } from 'oidc-provider';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Config } from '../config.js';
import { createMemoryMailer } from '../infra/mail/mailer.memory.js';
import type { MemoryMailer, SentMail } from '../infra/mail/mailer.memory.js';
import type { TestDatabase } from './db.js';

/** A port that was free a moment ago, so the app's PUBLIC_URL can name it before the app listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

export interface IdpTestApp {
  app: FastifyInstance;
  config: Config;
  /** `http://127.0.0.1:<port>`: PUBLIC_URL. */
  baseUrl: string;
  issuer: string;
  clientId: string;
  audience: string;
  redirectUri: string;
  dataDir: string;
  /** Every mail the app sent (confirmation and reset links), kept across restarts. */
  mailer: MemoryMailer;
  /**
   * The newest mail to `to` whose subject contains `subject`, sent after `since` mails had been sent
   * (mail goes out in the background: this waits for it, 10 s at most).
   */
  mailTo(to: string, subject: string, since?: number): Promise<SentMail>;
  /** Closes the app and starts it again on the same port and data (database file or injected database). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface IdpTestAppOptions {
  /** An injected database (kept across restarts); without one the app opens SQLite in its data dir. */
  database?: TestDatabase;
  env?: Record<string, string>;
  /** A port from {@link freePort}, when something (the fake Google) must know the URL beforehand. */
  port?: number;
}

export async function startIdpTestApp(options: IdpTestAppOptions = {}): Promise<IdpTestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-idp-'));
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    // Cheap hashes keep the suite fast; production uses 15 (see password-hash.ts).
    IDP_PASSWORD_COST: '10',
    ...options.env,
  });

  const mailer = createMemoryMailer();
  const start = async (): Promise<FastifyInstance> => {
    const app = await createApp(config, {
      ...(options.database === undefined ? {} : { database: options.database }),
      mailer,
    });
    await app.listen({ port, host: '127.0.0.1' });
    return app;
  };

  const handle: IdpTestApp = {
    app: await start(),
    config,
    baseUrl,
    issuer: `${baseUrl}/idp`,
    clientId: config.auth.clientId,
    audience: config.auth.audience,
    redirectUri: `${baseUrl}/unlock`,
    dataDir,
    mailer,
    async mailTo(to, subject, since = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = mailer.sent
          .slice(since)
          .filter((m) => m.to === to && m.subject.includes(subject))
          .at(-1);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async restart() {
      await handle.app.close();
      // Let clients notice their kept-alive connections closed before the port answers again.
      await new Promise((resolve) => setTimeout(resolve, 100));
      handle.app = await start();
    },
    async close() {
      await handle.app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

interface StoredCookie {
  origin: string;
  name: string;
  value: string;
  path: string;
}

/**
 * `fetch` with a cookie jar and manual redirects: what a browser does, minus rendering. Cookies are
 * kept per origin and path (enough for oidc-provider's path-scoped interaction cookies).
 */
export class TestBrowser {
  readonly cookies: StoredCookie[] = [];

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => c.origin === url.origin && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attrValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = attrValue;
        if (key.toLowerCase() === 'max-age' && Number(attrValue) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(attrValue) < Date.now()) expired = true;
      }
      const index = this.cookies.findIndex(
        (c) => c.origin === url.origin && c.name === name && c.path === path,
      );
      if (index !== -1) this.cookies.splice(index, 1);
      if (!expired) this.cookies.push({ origin: url.origin, name, value, path });
    }
  }

  async fetch(input: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  get(url: string): Promise<Response> {
    return this.fetch(url);
  }

  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Follows redirects from `response` until one points at `stopAt` (not fetched: the web app's
   * /unlock is not served in tests) or a page answers. Returns the last response and URL.
   */
  async follow(
    response: Response,
    from: string,
    stopAt: string,
  ): Promise<{ response: Response; url: string }> {
    let current = response;
    let url = from;
    for (let hops = 0; hops < 20; hops += 1) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || location === null)
        return { response: current, url };
      url = new URL(location, url).href;
      if (url.startsWith(stopAt)) return { response: current, url };
      await current.body?.cancel();
      current = await this.get(url);
    }
    throw new Error('too many redirects');
  }
}

/** The PKCE pair, state and nonce the web app (oidc-client-ts) makes for one sign-in. */
export function newAuthRequest(): { verifier: string; challenge: string; state: string; nonce: string } {
  const verifier = randomBytes(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
  };
}

/** The first form on an HTML page: its action and fields (inputs with a name and value, and selects). */
export function formOf(html: string, index = 0): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form\b[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = forms[index];
  if (form === undefined) throw new Error('no form on the page');
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input\b[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name !== undefined) fields[name] = value.replaceAll('&amp;', '&').replaceAll('&quot;', '"');
  }
  return { action: (form[1] ?? '').replaceAll('&amp;', '&'), fields };
}

export interface FakeGoogleUser {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

export interface FakeGoogle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at "Google" next (no page: the fake signs this user in at once). */
  user: FakeGoogleUser;
  close(): Promise<void>;
}

/**
 * A second oidc-provider on 127.0.0.1 playing Google: a confidential client for Coffer's callback,
 * id_tokens with email/email_verified/name, and an interaction that signs in {@link FakeGoogle.user}.
 */
export async function startFakeGoogle(
  redirectUri: string,
  options: { port?: number; clientSecret?: string } = {},
): Promise<FakeGoogle> {
  // Requests that arrive while the provider is still being built get a 503, never a hung socket.
  let dispatch: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = createServer((req, res) => {
    if (dispatch === null) {
      res.statusCode = 503;
      res.end('starting');
      return;
    }
    dispatch(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'fake-google', alg: 'RS256', use: 'sig' };
  const handle: FakeGoogle = {
    issuer,
    clientId: 'coffer.apps.googleusercontent.test',
    clientSecret: options.clientSecret ?? randomBytes(24).toString('base64url'),
    user: { sub: '1000001', email: 'gina@gmail.test', email_verified: true, name: 'Gina Google' },
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
  const configuration: Configuration = {
    clients: [
      {
        client_id: handle.clientId,
        client_secret: handle.clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: (): AccountClaims => ({ ...handle.user, sub }),
    }),
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  const interact = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: handle.user.sub } });
      return;
    }
    const grant = new provider.Grant({ accountId: handle.user.sub, clientId: handle.clientId });
    const missing = details.prompt.details.missingOIDCScope;
    if (Array.isArray(missing)) grant.addOIDCScope(missing.join(' '));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      {
        mergeWithLastSubmission: true,
      },
    );
  };
  dispatch = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/') === true) {
      interact(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    void callback(req, res);
  };
  return handle;
}

/** The first link in a mail's text to a page under `path` (e.g. `/idp/email/verify`). */
export function linkIn(mail: SentMail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path.replaceAll('/', '\\/')}\\?token=[A-Za-z0-9_-]+`).exec(
    mail.text,
  );
  if (match === null) throw new Error(`no ${path} link in "${mail.subject}"`);
  return match[0];
}
