// Browser globals for the functions that run in the page (`waitForFunction`, `evaluate`).
/// <reference lib="dom" />
import type { ElementHandle, Locator, Page } from 'puppeteer-core';
import { registerRoleQuery, roleSelector } from './role-query.js';

/**
 * What the Firefox journey does in a page, with puppeteer-core: find by role and accessible name
 * (computed from the DOM, `role-query.ts`: puppeteer's ARIA query would start Firefox's
 * accessibility engine), by label, by text. Every helper waits for its state up to the page's
 * default timeout.
 */

registerRoleQuery();

/**
 * How often a page is checked for a state (text, a field, a path): a snackbar stays for seconds. Not
 * on every change of the page (`polling: 'mutation'`): a transfer's progress changes it all the time,
 * and each check lays the whole page out for `innerText`, work of the test's, not of the app's. Not
 * on animation frames (puppeteer's default): a person's window that is not the front tab gets none,
 * and its checks stopped.
 */
const POLL_MS = 100;

/** The element with this role and exact accessible name. */
export function byRole(page: Page, role: string, name: string): Locator<Element> {
  return page.locator(roleSelector(role, name));
}

/**
 * Clicks the element with this role and name once it is shown, enabled and still, in the tab in
 * front: the two people's tabs share one window, and a tab behind gets no animation frames, which
 * the locator waits on (its click waited out every timeout there).
 */
export async function clickRole(page: Page, role: string, name: string): Promise<void> {
  await page.bringToFront();
  await byRole(page, role, name).click();
}

/**
 * The form control whose label text starts with `label` (a required field's label also holds its
 * asterisk), inside `within` (a CSS selector, e.g. a dialog) when given.
 */
export async function fieldByLabel(
  page: Page,
  label: string,
  within = 'body',
): Promise<ElementHandle<HTMLInputElement>> {
  const handle = await page.waitForFunction(
    (text: string, scope: string) => {
      for (const root of Array.from(document.querySelectorAll(scope))) {
        for (const label of Array.from(root.querySelectorAll('label'))) {
          const control = label.control;
          const named = label.innerText.trim().startsWith(text);
          if (named && control instanceof HTMLInputElement && !control.disabled) return control;
        }
      }
      return null;
    },
    { polling: POLL_MS },
    label,
    within,
  );
  const element = handle.asElement();
  if (element === null) throw new Error(`no field labelled "${label}"`);
  return element as ElementHandle<HTMLInputElement>;
}

/** Types `value` into the field labelled `label` (as a person would; React sees every key). */
export async function fillLabel(page: Page, label: string, value: string, within?: string): Promise<void> {
  const field = await fieldByLabel(page, label, within);
  await field.click({ count: 3 });
  await field.type(value);
}

/** Waits until the page's visible text contains `text`. */
export async function waitForText(page: Page, text: string, timeout?: number): Promise<void> {
  await page.waitForFunction(
    (wanted: string) => document.body.innerText.includes(wanted),
    { polling: POLL_MS, ...(timeout === undefined ? {} : { timeout }) },
    text,
  );
}

/** Waits until the page's visible text no longer contains `text`. */
export async function waitForNoText(page: Page, text: string, timeout?: number): Promise<void> {
  await page.waitForFunction(
    (gone: string) => !document.body.innerText.includes(gone),
    { polling: POLL_MS, ...(timeout === undefined ? {} : { timeout }) },
    text,
  );
}

/** Waits until the page's path matches `path` (a regular expression's source, e.g. `/new$`). */
export async function waitForPath(page: Page, path: RegExp): Promise<void> {
  await page.waitForFunction(
    (source: string) => new RegExp(source).test(location.pathname),
    { polling: POLL_MS },
    path.source,
  );
}

/** Clicks the app's navigation link `name` and waits for `path`. */
export async function navigate(page: Page, name: string, path: RegExp): Promise<void> {
  await clickRole(page, 'link', name);
  await waitForPath(page, path);
}
