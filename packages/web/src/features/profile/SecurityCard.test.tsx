import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure } from '@testing-library/react';
import { createTestAppSession, TEST_MASTER_KEY } from '../../session/testing/test-session';
import { createFakeApi, renderScreen } from '../../test/render-screen';
import { SecurityCard } from './SecurityCard';

// Real key derivations (PBKDF2) on a busy machine: generous waits.
vi.setConfig({ testTimeout: 60_000 });
beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
});
afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

async function renderCard(options: { withKit?: boolean } = {}) {
  const session = await createTestAppSession({ unlocked: true });
  if (options.withKit === true) await session.encryption.createRecoveryKit(TEST_MASTER_KEY);
  renderScreen(<SecurityCard email="grace@example.com" />, { api: createFakeApi({}), session });
  return session;
}

const user = () => userEvent.setup({ delay: null });
const field = (label: RegExp) => screen.getByLabelText(label);

describe('Profile → Encryption keys: change the master unlock key', () => {
  it('shows the spec’s messages for each field, and one of its own for an unchanged key', async () => {
    const session = await renderCard();
    const u = user();
    await u.click(screen.getByRole('button', { name: 'Change master unlock key' }));
    // Current and new key both say it is required; then the confirmation.
    expect(screen.getAllByText('Password is required')).toHaveLength(2);
    expect(screen.getByText('Please confirm your password')).toBeTruthy();

    const newKey = field(/^New master unlock key/);
    for (const [value, message] of [
      ['Ab1!', 'Password must be at least 8 characters'],
      ['abcdefg1!', 'Password must contain at least one uppercase letter'],
      ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
      ['Abcdefgh!', 'Password must contain at least one number'],
      ['Abcdefgh1', 'Password must contain at least one special character'],
    ] as const) {
      await u.clear(newKey);
      await u.type(newKey, value);
      expect(screen.getByText(message)).toBeTruthy();
    }
    await u.type(field(/^Current master unlock key/), TEST_MASTER_KEY);
    await u.clear(newKey);
    await u.type(newKey, TEST_MASTER_KEY);
    expect(screen.getByText('The new master unlock key must differ from the current one.')).toBeTruthy();
    await u.clear(newKey);
    await u.type(newKey, 'Brand-New-Key-5');
    await u.type(field(/^Confirm new master unlock key/), 'Brand-New-Key-6');
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(session.keysServer.calls).not.toContain('PUT /users/keys');
  });

  it('changes nothing with a wrong current key and says so; the right one changes it', async () => {
    const session = await renderCard();
    const u = user();
    const before = session.keysServer.records[0]?.encryptedPrivateKey;
    await u.type(field(/^Current master unlock key/), 'Not-The-Key-1');
    await u.type(field(/^New master unlock key/), 'Brand-New-Key-5');
    await u.type(field(/^Confirm new master unlock key/), 'Brand-New-Key-5');
    await u.click(screen.getByRole('button', { name: 'Change master unlock key' }));
    expect(
      await screen.findByText('The current master unlock key is not correct. Nothing was changed.'),
    ).toBeTruthy();
    expect(session.keysServer.records[0]?.encryptedPrivateKey).toBe(before);

    await u.type(field(/^Current master unlock key/), TEST_MASTER_KEY);
    await u.click(screen.getByRole('button', { name: 'Change master unlock key' }));
    expect(
      await screen.findByText('Master unlock key changed. Use the new one from now on, on every device.', {
        selector: '[role="status"]',
      }),
    ).toBeTruthy();
    expect(session.keysServer.records[0]?.encryptedPrivateKey).not.toBe(before);
    expect(session.encryption.isUnlocked()).toBe(true);
  });
});

describe('Profile → Encryption keys: recovery kit', () => {
  it('warns without a kit, makes one with the master unlock key, and then says when it was made', async () => {
    const session = await renderCard();
    const u = user();
    expect(await screen.findByText('No recovery kit')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Create recovery kit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create recovery kit' });
    await u.type(within(dialog).getByLabelText(/^Master unlock key/), 'Not-The-Key-1');
    await u.click(within(dialog).getByRole('button', { name: 'Create recovery kit' }));
    expect(
      await within(dialog).findByText('The master unlock key is not correct. No recovery kit was created.'),
    ).toBeTruthy();
    expect(session.keysServer.recovery).toBeNull();

    await u.type(within(dialog).getByLabelText(/^Master unlock key/), TEST_MASTER_KEY);
    await u.click(within(dialog).getByRole('button', { name: 'Create recovery kit' }));
    const sheet = await screen.findByRole('dialog', { name: 'Your recovery kit' });
    expect(within(sheet).getAllByTestId('recovery-word')).toHaveLength(24);
    expect(session.keysServer.recovery).not.toBeNull();
    await u.click(within(sheet).getByRole('checkbox', { name: 'I have saved my recovery kit' }));
    await u.click(within(sheet).getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Recovery kit saved')).toBeTruthy();
  });

  it('says before replacing that the previous kit stops working', async () => {
    const session = await renderCard({ withKit: true });
    const first = session.keysServer.recovery?.kitId;
    const u = user();
    await u.click(await screen.findByRole('button', { name: 'Create a new recovery kit' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create a new recovery kit?' });
    expect(within(confirm).getByText(/Your current recovery kit stops working/)).toBeTruthy();
    await u.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Create a new recovery kit?' })).toBeNull();
    });
    expect(session.keysServer.recovery?.kitId).toBe(first);

    await u.click(screen.getByRole('button', { name: 'Create a new recovery kit' }));
    await u.click(await screen.findByRole('button', { name: 'Replace recovery kit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create recovery kit' });
    await u.type(within(dialog).getByLabelText(/^Master unlock key/), TEST_MASTER_KEY);
    await u.click(within(dialog).getByRole('button', { name: 'Create recovery kit' }));
    await screen.findByRole('dialog', { name: 'Your recovery kit' });
    expect(session.keysServer.recovery?.kitId).not.toBe(first);
  });
});
