/**
 * A local stand-in for the parts of Stripe's API the app calls, for tests: the real `stripe` SDK talks
 * to it over HTTP on 127.0.0.1 (`STRIPE_API_BASE`). Stripe's API cannot run here; everything else in a
 * payments test is real. Implements: POST /v1/customers (honouring Idempotency-Key),
 * /v1/checkout/sessions and /v1/billing_portal/sessions.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripeRequest {
  method: string;
  path: string;
  /** The form body, flattened as sent (`line_items[0][price]`). */
  params: Record<string, string>;
  idempotencyKey: string | undefined;
}

export interface FakeStripe {
  /** `STRIPE_API_BASE` for the SDK, e.g. `http://127.0.0.1:41234`. */
  apiBase: string;
  secretKey: string;
  requests: FakeStripeRequest[];
  /** Answer every call with 500, as a Stripe outage. */
  outage: boolean;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') })
    .end(JSON.stringify(body));
}

function stripeError(res: ServerResponse, status: number, type: string, message: string): void {
  send(res, status, { error: { type, message } });
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const requests: FakeStripeRequest[] = [];
  const customersByKey = new Map<string, unknown>();
  const state = { outage: false };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const params = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const header = req.headers['idempotency-key'];
      const idempotencyKey = typeof header === 'string' ? header : undefined;
      requests.push({ method: req.method ?? '', path, params, idempotencyKey });

      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        stripeError(res, 401, 'invalid_request_error', 'Invalid API Key provided');
        return;
      }
      if (state.outage) {
        stripeError(res, 500, 'api_error', 'Something went wrong on our end');
        return;
      }
      if (req.method !== 'POST') {
        stripeError(
          res,
          404,
          'invalid_request_error',
          `Unrecognized request URL (${req.method ?? ''}: ${path})`,
        );
        return;
      }
      const created = Math.floor(Date.now() / 1000);
      switch (path) {
        case '/v1/customers': {
          const existing = idempotencyKey === undefined ? undefined : customersByKey.get(idempotencyKey);
          const customer = existing ?? {
            id: id('cus'),
            object: 'customer',
            created,
            email: params.email ?? null,
            name: params.name ?? null,
            metadata: { cofferUserId: params['metadata[cofferUserId]'] },
          };
          if (idempotencyKey !== undefined) customersByKey.set(idempotencyKey, customer);
          send(res, 200, customer);
          return;
        }
        case '/v1/checkout/sessions': {
          if (params.mode !== 'subscription' || params['line_items[0][price]'] === undefined) {
            stripeError(res, 400, 'invalid_request_error', 'A subscription checkout needs a recurring price');
            return;
          }
          const sessionId = id('cs_test');
          send(res, 200, {
            id: sessionId,
            object: 'checkout.session',
            created,
            mode: params.mode,
            status: 'open',
            customer: params.customer ?? null,
            client_reference_id: params.client_reference_id ?? null,
            success_url: params.success_url,
            cancel_url: params.cancel_url,
            url: `https://checkout.stripe.test/c/pay/${sessionId}`,
          });
          return;
        }
        case '/v1/billing_portal/sessions': {
          const sessionId = id('bps');
          send(res, 200, {
            id: sessionId,
            object: 'billing_portal.session',
            created,
            customer: params.customer,
            return_url: params.return_url,
            url: `https://billing.stripe.test/p/session/${sessionId}`,
          });
          return;
        }
        default:
          stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (POST: ${path})`);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiBase: `http://127.0.0.1:${port}`,
    secretKey,
    requests,
    get outage() {
      return state.outage;
    },
    set outage(value: boolean) {
      state.outage = value;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
