import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { sessionStorageKeys } from '@coffer/contracts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setAppSession } from '../../session/app-session';
import {
  createTestAppSession,
  TEST_MASTER_KEY,
  type TestAppSessionOptions,
} from '../../session/testing/test-session';
import { renderRoute } from '../../test/render';

async function openUnlock(options: TestAppSessionOptions) {
  const session = await createTestAppSession(options);
  setAppSession(session);
  const rendered = renderRoute('/unlock');
  return { session, rendered };
}

// Whole-app renders with lazy screens and real key derivation: slow on a busy machine, so the waits
// are generous (a timed-out test would otherwise keep typing into the next test's screen).
vi.setConfig({ testTimeout: 60_000 });
beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
});

afterEach(() => {
  vi.restoreAllMocks();
  act(() => {
    notifications.clean();
  });
});

const keyField = () => screen.findByLabelText(/^Master unlock key/);
const user = () => userEvent.setup({ delay: null });

describe('unlock screen: set-up', () => {
  it('is titled Set Up Encryption and asks for a confirmation', async () => {
    await openUnlock({});
    expect(await screen.findByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeTruthy();
    expect(await keyField()).toBe(document.activeElement);
    expect(screen.getByLabelText(/^Confirm master unlock key/)).toBeTruthy();
    expect(screen.queryByText('Forgot your master unlock key?')).toBeNull();
  });

  it('shows the spec’s messages in order as the key improves', async () => {
    await openUnlock({});
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Set up encryption' }));
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();

    const field = await keyField();
    const steps: [string, string][] = [
      ['Ab1!', 'Password must be at least 8 characters'],
      ['abcdefg1!', 'Password must contain at least one uppercase letter'],
      ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
      ['Abcdefgh!', 'Password must contain at least one number'],
      ['Abcdefgh1', 'Password must contain at least one special character'],
    ];
    for (const [value, message] of steps) {
      await u.clear(field);
      await u.type(field, value);
      expect(screen.getByText(message)).toBeTruthy();
    }
    await u.clear(field);
    await u.type(field, 'Abcdefg1!');
    await u.type(screen.getByLabelText(/^Confirm master unlock key/), 'Abcdefg1?');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
  });

  it('ticks the rules off in a checklist while typing', async () => {
    await openUnlock({});
    await user().type(await keyField(), 'abc1');
    // The checklist is the only list on the set-up screen.
    const met = screen
      .getAllByRole('listitem')
      .filter((item) => item.getAttribute('data-met') === 'true')
      .map((item) => item.getAttribute('data-rule'));
    expect(met).toEqual(['lowercase', 'number']);
  });

  it('sets up encryption, says so and goes to the remembered path', async () => {
    const { session, rendered } = await openUnlock({});
    session.flags.set(sessionStorageKeys.redirectAfterUnlock, '/contacts');
    const u = user();
    await u.type(await keyField(), 'New-Master-Key-9');
    await u.type(screen.getByLabelText(/^Confirm master unlock key/), 'New-Master-Key-9');
    await u.click(screen.getByRole('button', { name: 'Set up encryption' }));
    expect(await screen.findByText('Encryption set up successfully')).toBeTruthy();
    await waitFor(() => {
      expect(rendered.router.state.location.pathname).toBe('/contacts');
    });
    expect(session.keysServer.records).toHaveLength(1);
  });
});

describe('unlock screen: unlock', () => {
  it('is titled Unlock Encryption with one field', async () => {
    await openUnlock({ hasKeys: true });
    expect(await screen.findByText('Forgot your master unlock key?')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeTruthy();
    expect(screen.queryByLabelText(/^Confirm master unlock key/)).toBeNull();
  });

  it('shows the failure message for a wrong key and stays', async () => {
    const { session, rendered } = await openUnlock({ hasKeys: true });
    const u = user();
    await u.type(await keyField(), 'Wrong-Master-Key-1');
    await u.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByText('Encryption Unlock failed. Please try again.', {
        selector: '[role="alert"] *',
      }),
    ).toBeTruthy();
    expect(rendered.router.state.location.pathname).toBe('/unlock');
    expect(session.encryption.isUnlocked()).toBe(false);
  });

  it('unlocks with the right key and goes to /new by default', async () => {
    const { rendered } = await openUnlock({ hasKeys: true });
    const u = user();
    await u.type(await keyField(), TEST_MASTER_KEY);
    await u.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Encryption unlocked successfully')).toBeTruthy();
    await waitFor(() => {
      expect(rendered.router.state.location.pathname).toBe('/new');
    });
  });
});

describe('unlock screen: forgotten key', () => {
  it('confirms before deleting, and cancel goes back', async () => {
    const { session } = await openUnlock({ hasKeys: true });
    const u = user();
    await u.click(await screen.findByText('Forgot your master unlock key?'));
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Encryption' })).toBeTruthy();
    expect(screen.getByText('Files encrypted with your old key will become unreadable')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeTruthy();
    expect(session.keysServer.records).toHaveLength(1);
  });

  it('deletes the keys, sets needsNewEncryption, leaves the message for after the reload', async () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    const { session } = await openUnlock({ hasKeys: true });
    const u = user();
    await u.click(await screen.findByText('Forgot your master unlock key?'));
    await u.click(screen.getByRole('button', { name: 'Delete keys and reset' }));
    await waitFor(() => {
      expect(reload).toHaveBeenCalled();
    });
    expect(session.keysServer.records).toHaveLength(0);
    expect(session.flags.get(sessionStorageKeys.needsNewEncryption)).toBe('true');
    expect(sessionStorage.getItem('coffer.flash')).toContain(
      'Encryption state reset. Please set up new encryption with a new password.',
    );
  });
});

describe('unlock screen: keys you can check (issue 13)', () => {
  it('refuses a key record whose public key is not the user’s, and says why', async () => {
    const { session, rendered } = await openUnlock({ hasKeys: true });
    const { generateUserKeyPair, exportPublicKeyB64 } = await import('@coffer/crypto');
    const record = session.keysServer.records.at(-1);
    if (record === undefined) throw new Error('no key record');
    record.publicKey = await exportPublicKeyB64((await generateUserKeyPair()).publicKey);
    const u = user();
    await u.type(await keyField(), TEST_MASTER_KEY);
    await u.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByText(/The server returned keys that do not belong to you/, {
        selector: '[role="alert"] *',
      }),
    ).toBeTruthy();
    expect(screen.getByText('Coffer refused to unlock')).toBeTruthy();
    expect(rendered.router.state.location.pathname).toBe('/unlock');
    expect(session.encryption.isUnlocked()).toBe(false);
  });
});
