// Browser globals for the query handler, which runs in the page.
/// <reference lib="dom" />
import { Puppeteer } from 'puppeteer-core';

/**
 * Finding an element by role and accessible name in Firefox WITHOUT Firefox's accessibility engine.
 *
 * Puppeteer's ARIA query asks Firefox (WebDriver BiDi `locateNodes`, type `accessibility`) and so
 * starts Firefox's accessibility engine, which then stays on: every later change of the page is
 * mirrored into an accessibility tree and sent to the parent process. A user's Firefox runs it only
 * for assistive technology, so with it the journey and the benchmark measured a browser few people
 * have (the transfers' parent main thread busy for 20 s per GiB). Role and name are computed here
 * from the DOM instead, for what the journey asks: an explicit `role` or the element's implicit one,
 * the name from `aria-labelledby`, `aria-label`, a form control's label, or the content (the roles
 * the journey uses; another role is found only where an element names it in `role`). Elements
 * hidden from people (not rendered, `aria-hidden`, `inert`) are never found. The Chromium suite
 * checks the accessibility tree itself (Playwright's `getByRole`, `accessibility.spec.ts`).
 */
const ROLE_QUERY = 'cofferRole';

/** The selector of the element with `role` and the exact accessible `name`. */
export function roleSelector(role: string, name: string): string {
  return `::-p-${ROLE_QUERY}(${JSON.stringify(JSON.stringify({ role, name }))})`;
}

/** Every element under `root` that `selector` (`{ role, name }` as JSON) names. Runs in the page. */
function queryAllByRole(root: Node, selector: string): Element[] {
  // Under tsx (the benchmarks) esbuild wraps the named functions below in `__name(…)`, which the
  // page's realm lacks (`bench/driver/session.ts`, NAME_SHIM): defined first, as a no-op.
  (globalThis as { __name?: unknown }).__name ??= (fn: unknown) => fn;
  const { role, name } = JSON.parse(selector) as { role: string; name: string };
  const implicit: Record<string, string> = {
    button: 'button, input[type=button], input[type=submit], input[type=reset]',
    link: 'a[href], area[href]',
    heading: 'h1, h2, h3, h4, h5, h6',
    article: 'article',
    listitem: 'ol > li, ul > li, menu > li',
    dialog: 'dialog',
    checkbox: 'input[type=checkbox]',
  };
  const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();
  const hidden = (element: Element): boolean =>
    element.closest('[aria-hidden="true"], [inert]') !== null ||
    (element instanceof HTMLElement && !element.checkVisibility());
  const textOf = (node: Node): string => {
    if (node instanceof Element && node.getAttribute('aria-hidden') === 'true') return '';
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    return Array.from(node.childNodes).map(textOf).join('');
  };
  const accessibleName = (element: Element): string => {
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy !== null) {
      return squash(
        labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id))
          .map((label) => (label === null ? '' : textOf(label)))
          .join(' '),
      );
    }
    const label = element.getAttribute('aria-label');
    if (label !== null && squash(label) !== '') return squash(label);
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      const labels = Array.from(element.labels ?? []);
      if (labels.length > 0) return squash(labels.map(textOf).join(' '));
      if (element instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(element.type))
        return squash(element.value);
      return '';
    }
    return squash(textOf(element));
  };
  const scope = root instanceof Document || root instanceof Element ? root : document;
  const candidates = Array.from(scope.querySelectorAll(`[role], ${implicit[role] ?? '[role]'}`));
  return candidates.filter((element) => {
    const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
    const matches = explicit === undefined ? element.matches(implicit[role] ?? ':not(*)') : explicit === role;
    return matches && !hidden(element) && accessibleName(element) === name;
  });
}

let registered = false;

/** Registers the query with puppeteer once per process. */
export function registerRoleQuery(): void {
  if (registered) return;
  Puppeteer.registerCustomQueryHandler(ROLE_QUERY, { queryAll: queryAllByRole });
  registered = true;
}
