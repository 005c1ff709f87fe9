import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { fileCard } from './files.js';

/** With E2E_SCREENSHOT_DIR set: the page (or its open dialog) at 1280 px and 390 px, for a person to look at. */
export async function screenshots(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir === undefined || dir === '') return;
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${dir}/${name}-${String(width)}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

export interface LinkChoices {
  readonly expires?: '1 hour' | '1 day' | '7 days' | '30 days' | 'Never';
  readonly limit?: '1 download' | '5 downloads' | '10 downloads' | '100 downloads' | 'Unlimited';
  readonly password?: string;
  readonly label?: string;
  /** Screenshot names for the form and the made link. */
  readonly screenshot?: string;
}

/** From My Files: the file's Links panel → Create link → the choices → the link's URL (shown once). */
export async function createLink(page: Page, fileName: string, choices: LinkChoices = {}): Promise<string> {
  if (!page.url().endsWith('/myfiles')) await page.goto('/myfiles');
  await fileCard(page, fileName)
    .getByRole('button', { name: `Links to ${fileName}` })
    .click();
  const panel = page.getByRole('dialog', { name: `Links to ${fileName}` });
  await expect(panel).toBeVisible();
  if (choices.screenshot !== undefined) await screenshots(page, `${choices.screenshot}-panel`);
  await panel.getByRole('button', { name: 'Create link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a link' });
  await expect(dialog).toBeVisible();
  if (choices.expires !== undefined)
    await pickOption(
      page,
      dialog.getByRole('textbox', { name: 'Expires' }).or(dialog.getByRole('combobox', { name: 'Expires' })),
      choices.expires,
    );
  if (choices.limit !== undefined)
    await pickOption(
      page,
      dialog
        .getByRole('textbox', { name: 'Download limit' })
        .or(dialog.getByRole('combobox', { name: 'Download limit' })),
      choices.limit,
    );
  if (choices.password !== undefined) await dialog.getByLabel('Password (optional)').fill(choices.password);
  if (choices.label !== undefined) await dialog.getByLabel('Label (optional)').fill(choices.label);
  if (choices.screenshot !== undefined) await screenshots(page, `${choices.screenshot}-form`);
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const field = dialog.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(/\/l\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}\.[0-9a-f]{64}$/, {
    timeout: 60_000,
  });
  if (choices.screenshot !== undefined) await screenshots(page, `${choices.screenshot}-made`);
  const url = await field.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  // Back on the file's panel, which now lists the new link; closed with Escape.
  await expect(panel.locator(`[data-link-id="${linkIdOf(url)}"]`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  return url;
}

/** Chooses an option of a Select (its textbox), and waits for the field to show it. */
export async function pickOption(
  page: Page,
  select: ReturnType<Page['getByRole']>,
  option: string,
): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(select).toHaveValue(option);
}

/** A browser context with no account at all: nothing from the owner's session. */
export async function strangerPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ acceptDownloads: true });
  await context.addInitScript(() => {
    localStorage.setItem('coffer.saveMethod', 'service-worker');
  });
  return { context, page: await context.newPage() };
}

/** The link id of a link's URL. */
export function linkIdOf(url: string): string {
  return new URL(url).pathname.split('/')[2] ?? '';
}

/** The owner's own API call with a JSON body (PATCH and the like), with the token the page holds. */
export async function ownerCall(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string };
      const response = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${user.access_token ?? ''}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        // Not JSON.
      }
      return { status: response.status, body: parsed };
    },
    { method, url: `/api${path}`, body },
  );
}
