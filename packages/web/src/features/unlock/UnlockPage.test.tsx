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
  // 10 s was not enough at load 25 (two set-up tests failed waiting for the success message).
  configure({ asyncUtilTimeout: 30_000 });
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
    // Then the recovery kit is offered (issue 29); skipping goes on.
    expect(await screen.findByRole('heading', { level: 1, name: 'Save your recovery kit' })).toBeTruthy();
    expect(rendered.router.state.location.pathname).toBe('/unlock');
    await u.click(screen.getByRole('button', { name: 'Skip for now' }));
    await waitFor(() => {
      expect(rendered.router.state.location.pathname).toBe('/contacts');
    });
    expect(session.keysServer.records).toHaveLength(1);
    expect(session.keysServer.recovery).toBeNull();
  });

  it('makes the recovery kit right after set-up and leaves only once it is saved', async () => {
    const { session, rendered } = await openUnlock({});
    const u = user();
    await u.type(await keyField(), 'New-Master-Key-9');
    await u.type(screen.getByLabelText(/^Confirm master unlock key/), 'New-Master-Key-9');
    await u.click(screen.getByRole('button', { name: 'Set up encryption' }));
    await u.click(await screen.findByRole('button', { name: 'Create recovery kit' }));
    const words = await screen.findAllByTestId('recovery-word');
    expect(words).toHaveLength(24);
    expect(session.keysServer.recovery?.wraps).toHaveLength(1);
    const proceed = screen.getByRole('button', { name: 'Continue' });
    expect(proceed).toHaveProperty('disabled', true);
    await u.click(screen.getByRole('checkbox', { name: 'I have saved my recovery kit' }));
    await u.click(proceed);
    await waitFor(() => {
      expect(rendered.router.state.location.pathname).toBe('/new');
    });
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

describe('unlock screen: recovery kit (issue 29)', () => {
  async function withKit() {
    const opened = await openUnlock({ hasKeys: true });
    const kit = await opened.session.encryption.createRecoveryKit(TEST_MASTER_KEY);
    return { ...opened, kit };
  }

  it('offers the kit before the reset, checks the words, then asks for a new key and unlocks', async () => {
    const { session, rendered, kit } = await withKit();
    const u = user();
    await u.click(await screen.findByText('Forgot your master unlock key?'));
    expect(screen.getByRole('button', { name: 'Delete keys and reset' })).toBeTruthy();
    await u.click(await screen.findByRole('button', { name: 'Use your recovery kit' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Recover Encryption' })).toBeTruthy();

    const field = screen.getByLabelText(/^Recovery kit words/);
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Enter the 24 words of your recovery kit.')).toBeTruthy();
    await u.type(field, kit.words.slice(0, 23).join(' '));
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('A recovery kit has 24 words. You entered 23.')).toBeTruthy();
    await u.clear(field);
    await u.type(field, kit.words.join(' '));
    await u.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Recovery kit accepted. Choose a new master unlock key.')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Set new key and unlock' }));
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('Please confirm your password')).toBeTruthy();
    const newKey = screen.getByLabelText(/^New master unlock key/);
    await u.type(newKey, 'abcdefg1!');
    expect(screen.getByText('Password must contain at least one uppercase letter')).toBeTruthy();
    await u.clear(newKey);
    await u.type(newKey, 'Recovered-Key-7');
    await u.type(screen.getByLabelText(/^Confirm new master unlock key/), 'Recovered-Key-8');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    await u.clear(screen.getByLabelText(/^Confirm new master unlock key/));
    await u.type(screen.getByLabelText(/^Confirm new master unlock key/), 'Recovered-Key-7');
    await u.click(screen.getByRole('button', { name: 'Set new key and unlock' }));

    expect(await screen.findByText('Encryption recovered. Your new master unlock key is set.')).toBeTruthy();
    await waitFor(() => {
      expect(rendered.router.state.location.pathname).toBe('/new');
    });
    expect(session.encryption.isUnlocked()).toBe(true);
  });

  it('says so when the words belong to a kit replaced since', async () => {
    const { session, kit } = await withKit();
    await session.encryption.createRecoveryKit(TEST_MASTER_KEY);
    const u = user();
    await u.click(await screen.findByText('Forgot your master unlock key?'));
    await u.click(await screen.findByRole('button', { name: 'Use your recovery kit' }));
    await u.type(screen.getByLabelText(/^Recovery kit words/), kit.words.join(' '));
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This recovery kit has been replaced by a newer one')).toBeTruthy();
    expect(screen.queryByLabelText(/^New master unlock key/)).toBeNull();
  });

  it('does not offer a kit to an account without one', async () => {
    await openUnlock({ hasKeys: true });
    const u = user();
    await u.click(await screen.findByText('Forgot your master unlock key?'));
    expect(await screen.findByRole('button', { name: 'Delete keys and reset' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use your recovery kit' })).toBeNull();
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
