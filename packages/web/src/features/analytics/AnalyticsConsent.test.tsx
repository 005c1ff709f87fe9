import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createAnalyticsConsent } from '../../lib/analytics/consent';
import { renderWithProviders } from '../../test/render';
import { AnalyticsConsentPrompt, AnalyticsConsentSwitch, analyticsConsentText } from './AnalyticsConsent';

function storeWith(configured: boolean) {
  const values = new Map<string, string>();
  const storage = {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => values.set(key, value),
  } as unknown as Storage;
  const start = vi.fn(() => Promise.resolve(true));
  const stop = vi.fn();
  const store = createAnalyticsConsent({
    storage: () => storage,
    loadSettings: () => Promise.resolve(configured ? { key: 'phc_test', host: 'https://a.example' } : null),
    start,
    stop,
  });
  return { store, start, stop };
}

describe('analytics consent prompt and switch', () => {
  it('asks once analytics is configured; Allow starts it and the prompt goes', async () => {
    const { store, start } = storeWith(true);
    renderWithProviders(<AnalyticsConsentPrompt store={store} />);
    expect(screen.queryByText(analyticsConsentText.title)).toBeNull();
    await act(() => store.load());
    const prompt = screen.getByRole('region', { name: analyticsConsentText.title });
    expect(prompt.textContent).toContain('never file names, emails, contacts or keys');
    expect(start).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: analyticsConsentText.allow }));
    expect(start).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('region', { name: analyticsConsentText.title })).toBeNull();
  });

  it('“Decide later” closes it without starting anything', async () => {
    const { store, start } = storeWith(true);
    renderWithProviders(<AnalyticsConsentPrompt store={store} />);
    await act(() => store.load());
    await userEvent.click(screen.getByRole('button', { name: analyticsConsentText.later }));
    expect(screen.queryByRole('region', { name: analyticsConsentText.title })).toBeNull();
    expect(start).not.toHaveBeenCalled();
    expect(store.getSnapshot().consent).toBeNull();
  });

  it('shows nothing when analytics is not configured', async () => {
    const { store } = storeWith(false);
    renderWithProviders(
      <>
        <AnalyticsConsentPrompt store={store} />
        <AnalyticsConsentSwitch store={store} />
      </>,
    );
    await act(() => store.load());
    expect(screen.queryByText(analyticsConsentText.title)).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('the Profile switch changes the answer later', async () => {
    const { store, start, stop } = storeWith(true);
    renderWithProviders(<AnalyticsConsentSwitch store={store} />);
    await act(() => store.load());
    // The label wraps the input: its name is the label and the description after it.
    const toggle = screen.getByRole('switch', { name: new RegExp(`^${analyticsConsentText.switchLabel}`) });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await userEvent.click(toggle);
    expect(start).toHaveBeenCalledTimes(1);
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await userEvent.click(toggle);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot().consent).toBe('denied');
  });
});
