import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a demo checkout or portal link works. */
export const DEMO_SESSION_TTL_MS = 30 * 60 * 1000;

/**
 * A demo checkout or portal visit. The browser reaches the demo page by a redirect, without the bearer
 * token, so the session id itself is the capability: signed, bound to the user who asked for it, short
 * lived; single use is enforced where it is spent (its `id` becomes a payment event id).
 */
export type DemoSession =
  | {
      kind: 'checkout';
      /** Random, 128 bits: names the session and the events it produces. */
      id: string;
      userId: string;
      customerId: string;
      priceId: string;
      successUrl: string;
      cancelUrl: string;
      expiresAt: Date;
    }
  | {
      kind: 'portal';
      id: string;
      userId: string;
      customerId: string;
      returnUrl: string;
      expiresAt: Date;
    };

export type NewDemoSession =
  | Omit<Extract<DemoSession, { kind: 'checkout' }>, 'id' | 'expiresAt'>
  | Omit<Extract<DemoSession, { kind: 'portal' }>, 'id' | 'expiresAt'>;

/** Signs sessions into URL-safe tokens and reads them back. */
export interface DemoSessionTokens {
  issue(session: NewDemoSession): string;
  /** The session, or null when the token is forged, altered, malformed or expired. */
  read(token: string): DemoSession | null;
}

const CONTEXT = 'coffer-demo-billing-v1';
const TOKEN = /^[A-Za-z0-9_-]{1,12000}\.[A-Za-z0-9_-]{43}$/;

interface Payload {
  k: 'checkout' | 'portal';
  i: string;
  u: string;
  c: string;
  /** checkout: price, success and cancel URLs; portal: return URL. */
  p?: string;
  s?: string;
  x?: string;
  r?: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function sessionOf(payload: Payload): DemoSession | null {
  const base = { id: payload.i, userId: payload.u, customerId: payload.c, expiresAt: new Date(payload.e) };
  if (!isString(base.id) || !isString(base.userId) || !isString(base.customerId)) return null;
  if (payload.k === 'checkout' && isString(payload.p) && isString(payload.s) && isString(payload.x)) {
    return { ...base, kind: 'checkout', priceId: payload.p, successUrl: payload.s, cancelUrl: payload.x };
  }
  if (payload.k === 'portal' && isString(payload.r)) return { ...base, kind: 'portal', returnUrl: payload.r };
  return null;
}

export function createDemoSessionTokens(
  secret: Uint8Array,
  now: () => Date = () => new Date(),
): DemoSessionTokens {
  if (secret.byteLength < 32) throw new Error('The demo billing secret must have at least 32 bytes');
  const mac = (body: string) => createHmac('sha256', secret).update(`${CONTEXT}.${body}`).digest();

  return {
    issue(session) {
      const payload: Payload = {
        k: session.kind,
        i: randomBytes(16).toString('base64url'),
        u: session.userId,
        c: session.customerId,
        e: now().getTime() + DEMO_SESSION_TTL_MS,
        ...(session.kind === 'checkout'
          ? { p: session.priceId, s: session.successUrl, x: session.cancelUrl }
          : { r: session.returnUrl }),
      };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },

    read(token) {
      if (!TOKEN.test(token)) return null;
      const [body = '', signature = ''] = token.split('.');
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(body);
      if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return null;
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
      } catch {
        return null;
      }
      if (typeof payload !== 'object' || typeof payload.e !== 'number' || payload.e <= now().getTime())
        return null;
      return sessionOf(payload);
    },
  };
}

/** The demo's HMAC secret in `server_secrets`: every instance on the database signs with it. */
export const DEMO_SECRET_NAME = 'billing-demo';
