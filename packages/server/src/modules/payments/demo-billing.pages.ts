import { formatCount, formatGb } from '@coffer/contracts';
import type { PlanLimits, Tier } from '../../config.js';
import { escapeHtml, renderHtmlPage } from '../../http/html-page.js';
import { IDP_STYLES } from '../../infra/idp/idp.styles.js';
import type { DemoCheckoutView, DemoPortalView } from './demo-billing.service.js';

/**
 * Server-rendered pages of the demo payment provider, in the look of the app and of the identity
 * provider's pages (one inline stylesheet, system fonts, blue primary). No scripts; every value is
 * escaped; forms post back to the same path with the session in a hidden field.
 */

export const TIER_LABELS: Record<Tier, string> = { Free: 'Free Tier', Personal: 'Personal Tier' };

/** dd/mm/yyyy, as the app's Limits card shows dates. */
export function formatDay(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(date);
}

const EXTRA_STYLES = `
.badge{display:inline-block;margin:0 0 12px;padding:2px 10px;border-radius:999px;font-size:.75rem;font-weight:700;
  letter-spacing:.04em;text-transform:uppercase;background:#fff4e6;color:#a14d00;border:1px solid #ffd8a8}
.plan{margin:0 0 20px;padding:16px;border:1px solid #dee2e6;border-radius:10px;background:#f8f9fb}
.plan-head{display:flex;justify-content:space-between;align-items:baseline;gap:12px;margin:0 0 8px}
.plan-name{font-weight:700;font-size:1.0625rem}
.plan-price{color:#5c636e;font-size:.875rem}
dl{margin:0;display:grid;grid-template-columns:1fr auto;gap:6px 16px;font-size:.9375rem}
dt{color:#5c636e}
dd{margin:0;font-weight:600;text-align:right}
.actions{display:grid;gap:10px}
.danger{background:#fff;color:#c92a2a;border-color:#ffc9c9}
.danger:hover{background:#fff5f5;color:#a51d1d}
`;

function layout(appUrl: string, title: string, body: string): string {
  return renderHtmlPage({
    title,
    styles: IDP_STYLES + EXTRA_STYLES,
    homeHref: `${appUrl}/profile`,
    footerNote: 'Demo payments: this server has no payment provider configured.',
    body,
  });
}

function limitsList(plan: PlanLimits, extra: [string, string][] = []): string {
  const n = formatCount;
  const rows: [string, string][] = [
    ['Storage', formatGb(plan.storageLimit)],
    ['Contacts', n(plan.maxContacts)],
    ['Shares', n(plan.maxShares)],
    ['Uploads per month', n(plan.monthlyUploadLimit)],
    ['Parallel uploads', n(plan.maxConcurrentUploads)],
    ...extra,
  ];
  return `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

function hidden(token: string): string {
  return `<input type="hidden" name="session" value="${escapeHtml(token)}">`;
}

const DEMO_NOTICE =
  '<div class="alert info" role="note"><div><strong>This is a demo checkout — no card is charged.</strong> ' +
  'Confirming switches your account to the Personal Tier right away, through the same steps a real payment takes.</div></div>';

export function checkoutPage(
  appUrl: string,
  formAction: string,
  token: string,
  view: DemoCheckoutView,
): string {
  const body = `<span class="badge">Demo</span>
<h1>Upgrade to Personal</h1>
<p class="lead">Review the plan and confirm.</p>
${DEMO_NOTICE}
<section class="plan" aria-label="Plan">
<div class="plan-head"><span class="plan-name">${TIER_LABELS.Personal}</span><span class="plan-price">Demo · free</span></div>
${limitsList(view.plan, [['Renews on', formatDay(view.renewsOn)]])}
</section>
<form method="post" action="${escapeHtml(formAction)}" class="actions">
${hidden(token)}
<button class="button primary" type="submit" name="action" value="confirm">Confirm upgrade</button>
<button class="button secondary" type="submit" name="action" value="cancel">Cancel</button>
</form>`;
  return layout(appUrl, 'Demo checkout', body);
}

export function portalPage(appUrl: string, formAction: string, token: string, view: DemoPortalView): string {
  const status: [string, string][] =
    view.periodEnd === null
      ? []
      : view.cancelsAtPeriodEnd
        ? [['Ends on', formatDay(view.periodEnd)]]
        : [['Next billing date', formatDay(view.periodEnd)]];
  const notice = view.cancelsAtPeriodEnd
    ? `<div class="alert info" role="status"><div>Your subscription cancels at period end. The ${TIER_LABELS.Personal} stays until ${escapeHtml(
        formatDay(view.periodEnd ?? new Date()),
      )}; then your account returns to the ${TIER_LABELS.Free}.</div></div>`
    : '';
  const buttons =
    view.tier === 'Free'
      ? ''
      : view.cancelsAtPeriodEnd
        ? '<button class="button primary" type="submit" name="action" value="resume">Resume subscription</button>'
        : '<button class="button danger" type="submit" name="action" value="cancel">Cancel subscription</button>';
  const body = `<span class="badge">Demo</span>
<h1>Manage subscription</h1>
<p class="lead">This is a demo billing portal — no card is charged.</p>
${notice}
<section class="plan" aria-label="Current plan">
<div class="plan-head"><span class="plan-name">${TIER_LABELS[view.tier]}</span><span class="plan-price">Current plan</span></div>
${limitsList(view.plan, status)}
</section>
<form method="post" action="${escapeHtml(formAction)}" class="actions">
${hidden(token)}
${buttons}
<a class="button secondary" href="${escapeHtml(view.session.returnUrl)}">Return to Coffer</a>
</form>`;
  return layout(appUrl, 'Demo billing portal', body);
}

/** A forged, expired or spent link. */
export function gonePage(appUrl: string): string {
  const body = `<h1>This link has expired</h1>
<p class="lead">Demo checkout and billing links work once, for 30 minutes. Start again from your profile.</p>
<a class="button primary" href="${escapeHtml(`${appUrl}/profile`)}">Back to Coffer</a>`;
  return layout(appUrl, 'Link expired', body);
}
