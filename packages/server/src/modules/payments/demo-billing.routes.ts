import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEMO_BILLING_PATH } from '../../infra/payments/payment-provider.demo.js';
import { checkoutPage, gonePage, portalPage } from './demo-billing.pages.js';
import type { DemoBillingService } from './demo-billing.service.js';

/** The session token rides in the query (GET) or a hidden field (POST): it outgrows a path parameter. */
type SessionQuery = { session?: unknown } | undefined;
type ActionForm = { session?: unknown; action?: unknown } | undefined;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Pages without scripts, posting only to this origin, never framed and never cached. */
function securityHeaders(publicUrl: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `form-action 'self' ${new URL(publicUrl).origin}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "object-src 'none'",
    ].join('; '),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex',
  };
}

/**
 * The demo provider's checkout and portal pages, reached by a browser redirect without a bearer
 * token: the signed, single-use session in the URL is what authorises them.
 */
export async function demoBillingRoutes(
  app: FastifyInstance,
  deps: { demo: DemoBillingService; publicUrl: string },
): Promise<void> {
  const { demo } = deps;
  const appUrl = deps.publicUrl.replace(/\/$/, '');
  const headers = securityHeaders(appUrl);
  const checkoutPath = `${DEMO_BILLING_PATH}/checkout`;
  const portalPath = `${DEMO_BILLING_PATH}/portal`;

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).headers(headers).type('text/html; charset=utf-8').send(body);
  const gone = (reply: FastifyReply) => html(reply, 410, gonePage(appUrl));
  const redirect = (reply: FastifyReply, target: string | null) =>
    target === null ? gone(reply) : reply.headers(headers).redirect(target, 303);

  await app.register((scope, _opts, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 32 * 1024 },
      (_request, body, parsed) => {
        parsed(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const hide = { schema: { hide: true } };

    /** A page for the session in the query; the link is gone once the session is. */
    const page = <V>(
      path: string,
      viewOf: (token: string) => Promise<V | null>,
      render: (token: string, view: V) => string,
    ) => {
      scope.get(path, hide, async (request, reply) => {
        const token = text((request.query as SessionQuery)?.session);
        const view = await viewOf(token);
        return view === null ? gone(reply) : html(reply, 200, render(token, view));
      });
    };
    /** The page's form: each button names an action, which answers where the browser goes next. */
    const form = (path: string, actions: Record<string, (token: string) => Promise<string | null>>) => {
      scope.post(path, hide, async (request, reply) => {
        const body = request.body as ActionForm;
        const action = text(body?.action);
        // Own keys only: an action named "toString" is no action.
        const act = Object.hasOwn(actions, action) ? actions[action] : undefined;
        if (act === undefined) return html(reply, 400, gonePage(appUrl));
        return redirect(reply, await act(text(body?.session)));
      });
    };

    page(
      checkoutPath,
      (token) => demo.checkoutView(token),
      (token, view) => checkoutPage(appUrl, checkoutPath, token, view),
    );
    form(checkoutPath, {
      confirm: (token) => demo.confirmCheckout(token),
      cancel: (token) => demo.abandonCheckout(token),
    });
    page(
      portalPath,
      (token) => demo.portalView(token),
      (token, view) => portalPage(appUrl, portalPath, token, view),
    );
    form(portalPath, {
      cancel: (token) => demo.cancelSubscription(token),
      resume: (token) => demo.resumeSubscription(token),
    });

    done();
  });
}
