/**
 * The document shell of the server-rendered pages (the identity provider's, the demo billing
 * provider's): one inline stylesheet, because the CSP allows inline styles and no scripts; no
 * external resources; not indexed, no referrer.
 */

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export interface HtmlPageOptions {
  /** Plain text; the tab reads "<title> · Coffer". */
  title: string;
  /** The whole inline stylesheet. */
  styles: string;
  /** Where the brand and the footer's "Back to Coffer" lead. */
  homeHref: string;
  /** Trusted markup (an inline SVG) before the brand's name. */
  brandIcon?: string;
  /** Trusted markup: the footer's first line. */
  footerNote: string;
  /** Trusted markup: the card's content. */
  body: string;
}

export function renderHtmlPage(page: HtmlPageOptions): string {
  const home = escapeHtml(page.homeHref);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(page.title)} · Coffer</title>
<style>${page.styles}</style>
</head>
<body>
<main>
<a class="brand" href="${home}">${page.brandIcon ?? ''}<span>Coffer</span></a>
<div class="card">
${page.body}
</div>
</main>
<footer>
<p>${page.footerNote}</p>
<p><a href="${home}">Back to Coffer</a></p>
</footer>
</body>
</html>`;
}
