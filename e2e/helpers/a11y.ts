// Browser globals for the function that runs in the page (`page.evaluate`).
/// <reference lib="dom" />
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

/** What the suite refuses: axe's two highest impacts. Moderate and minor findings are left to review. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

let axeSource: Promise<string> | undefined;

function loadAxe(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/**
 * Runs axe-core (WCAG 2.x A and AA, with colour contrast, plus best practices) on the page as it is
 * now and fails on any serious or critical violation, listing each with the elements it names.
 * Injected through `evaluate`, which the app's Content-Security-Policy does not govern.
 */
export async function expectNoA11yViolations(page: Page, screen: string): Promise<void> {
  // Animations settle first: a half-faded element would fail contrast for a reason no one sees.
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await loadAxe());
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  const blocking = violations.filter((v) => v.impact !== null && BLOCKING_IMPACTS.has(v.impact));
  const report = blocking
    .map(
      (v) =>
        `${v.impact ?? ''} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join('\n')}`,
    )
    .join('\n');
  expect.soft(blocking, `${screen}: accessibility violations\n${report}`).toEqual([]);
}

/** The element that has keyboard focus: its accessible-ish name and whether a focus ring is drawn. */
export async function focusedElement(
  page: Page,
): Promise<{ name: string; ringVisible: boolean; inDialog: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (el === null || el === document.body) return { name: '', ringVisible: false, inDialog: false };
    const style = getComputedStyle(el);
    const ringVisible =
      (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    const name = (el.getAttribute('aria-label') ?? el.textContent).trim();
    return { name, ringVisible, inDialog: el.closest('[role="dialog"]') !== null };
  });
}

/** Presses Tab until the focused element's name matches, at most `limit` times; fails otherwise. */
export async function tabTo(page: Page, name: RegExp, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await focusedElement(page);
    if (name.test(focused.name)) {
      expect(focused.ringVisible, `focus ring on "${focused.name}"`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${String(name)} within ${limit} presses`);
}
