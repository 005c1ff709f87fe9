/**
 * The contact card's key states (issue 13): unverified (no key), not verified in person (pinned on
 * first sight), verified in person, key changed (sharing blocked) and accepted, plus the refusals
 * (keys that do not match, and no signing key of one's own).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  encryptPrivateKey,
  exportPublicKeyB64,
  generateUserKeyPair,
  publicKeyFingerprint,
} from '@coffer/crypto';
import {
  createTestAppSession,
  TEST_MASTER_KEY,
  type TestAppSession,
} from '../../session/testing/test-session';
import type { ContactView } from '../../lib/contacts/contact-status';
import { makeTrustIdentity, servedKeyOf, type TrustIdentity } from '../../lib/trust/testing/trust-identities';
import { createFakeApi, renderScreen } from '../../test/render-screen';
import { ContactCard } from './ContactCard';

let bob: TrustIdentity;
/** Another key pair served under Bob's address (a swap by the server). */
let swapped: TrustIdentity;
/** A third person, whose signing key and binding the server mixes into Bob's record. */
let mallory: TrustIdentity;
let user: ReturnType<typeof userEvent.setup>;

beforeAll(async () => {
  [bob, swapped, mallory] = await Promise.all([
    makeTrustIdentity('bob@example.com'),
    makeTrustIdentity('bob@example.com', 'key-bob-2'),
    makeTrustIdentity('mallory@example.com'),
  ]);
});
beforeEach(() => {
  user = userEvent.setup({ delay: null });
});
afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

function viewOf(served: ReturnType<typeof servedKeyOf> | null): ContactView {
  const base = {
    name: 'Bob Builder',
    email: 'bob@example.com',
    color: '#1c7ed6',
    image: null,
    invited: false,
  };
  if (served === null) return { ...base, status: 'unverified', publicKey: null, keyId: null };
  return {
    ...base,
    status: 'verified',
    publicKey: served.publicKey,
    keyId: served.keyId,
    signingPublicKey: served.signingPublicKey,
    keyBinding: served.keyBinding,
  };
}

function renderCard(session: TestAppSession, contact: ContactView) {
  const onShare: ContactView[] = [];
  const result = renderScreen(
    <ContactCard
      contact={contact}
      onEdit={() => undefined}
      onDelete={() => undefined}
      onShare={(shared) => onShare.push(shared)}
      onInvite={() => undefined}
      inviting={false}
    />,
    { api: createFakeApi(), session },
  );
  return { ...result, onShare, card: () => screen.getByRole('article', { name: 'Bob Builder' }) };
}

const keyState = async (card: HTMLElement) => {
  await waitFor(() => {
    expect(card.querySelector('[data-key-state]')).not.toBeNull();
  });
  return card.querySelector('[data-key-state]')?.textContent;
};

describe('contact card: key states', () => {
  it('unverified: no key yet, so Invite and no key state', async () => {
    const session = await createTestAppSession({ unlocked: true });
    const { card } = renderCard(session, viewOf(null));
    expect(within(card()).getByText('Unverified')).toBeTruthy();
    expect(within(card()).getByRole('button', { name: 'Invite' })).toBeTruthy();
    expect(within(card()).queryByRole('button', { name: 'Share files' })).toBeNull();
    expect(card().querySelector('[data-key-state]')).toBeNull();
  });

  it('first sight: pinned, "Not verified in person"; compared in person: "Verified in person"', async () => {
    const session = await createTestAppSession({ unlocked: true });
    const { card } = renderCard(session, viewOf(servedKeyOf(bob)));
    expect(await keyState(card())).toBe('Not verified in person');
    expect(session.pinsServer.stored).not.toBeNull();
    expect(within(card()).getByRole('button', { name: 'Share files' })).toBeTruthy();

    await user.click(within(card()).getByRole('button', { name: 'Mark as verified' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify Bob Builder' });
    // The number to compare is the served key's.
    const number = within(dialog).getByLabelText('Safety number');
    expect(number.textContent).toBe(await publicKeyFingerprint(bob.publicKeyB64));
    await user.click(within(dialog).getByRole('button', { name: 'They match: mark verified' }));
    await waitFor(async () => {
      expect(await keyState(card())).toBe('Verified in person');
    });
    expect(within(card()).queryByRole('button', { name: 'Mark as verified' })).toBeNull();
    expect(within(card()).getByRole('button', { name: 'Share files' })).toBeTruthy();
  });

  it('key changed: blocked with both safety numbers until accepted; then shareable again', async () => {
    const session = await createTestAppSession({ unlocked: true });
    await session.trust.pin(bob.email, servedKeyOf(bob), 'verified');
    const { card } = renderCard(session, viewOf(servedKeyOf(swapped)));
    expect(await keyState(card())).toBe('Key changed');
    const alert = within(card()).getByRole('alert');
    expect(alert.textContent).toContain('The key of bob@example.com has changed');
    expect(alert.textContent).toContain('Sharing with Bob Builder is blocked until you accept the new key.');
    expect(within(alert).getByLabelText('Previous safety number').textContent).toBe(
      await publicKeyFingerprint(bob.publicKeyB64),
    );
    expect(within(alert).getByLabelText('New safety number').textContent).toBe(
      await publicKeyFingerprint(swapped.publicKeyB64),
    );
    expect(within(card()).queryByRole('button', { name: 'Share files' })).toBeNull();

    await user.click(within(card()).getByRole('button', { name: 'Accept new safety number' }));
    await waitFor(async () => {
      expect(await keyState(card())).toBe('New key accepted, not verified');
    });
    expect(within(card()).queryByRole('alert')).toBeNull();
    expect(within(card()).getByRole('button', { name: 'Share files' })).toBeTruthy();
    // An accepted key can still be verified in person.
    expect(within(card()).getByRole('button', { name: 'Mark as verified' })).toBeTruthy();
  });

  it('keys that do not belong together: "Keys do not match", no sharing', async () => {
    const session = await createTestAppSession({ unlocked: true });
    const mixed = {
      ...servedKeyOf(bob),
      signingPublicKey: mallory.signingPublicKeyB64,
      keyBinding: mallory.keyBindingJson,
    };
    const { card } = renderCard(session, viewOf(mixed));
    expect(await keyState(card())).toBe('Keys do not match');
    expect(within(card()).getByRole('alert').textContent).toContain('do not belong together');
    expect(within(card()).queryByRole('button', { name: 'Share files' })).toBeNull();
    expect(session.pinsServer.stored).toBeNull();
  });

  it('without a signing key of one’s own (adding it failed at unlock): "Sharing paused", nothing pinned', async () => {
    const session = await createTestAppSession({});
    const pair = await generateUserKeyPair();
    session.keysServer.records.push({
      keyId: 'legacy-key',
      publicKey: await exportPublicKeyB64(pair.publicKey),
      encryptedPrivateKey: await encryptPrivateKey(pair.privateKey, TEST_MASTER_KEY, { iterations: 100_000 }),
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    session.keysServer.failAddSigningKey = 1;
    await session.encryption.unlock(TEST_MASTER_KEY);
    expect(session.encryption.requireKeys().signingPrivateKey).toBeUndefined();

    const { card } = renderCard(session, viewOf(servedKeyOf(bob)));
    expect(await keyState(card())).toBe('Sharing paused');
    expect(within(card()).getByRole('alert').textContent).toContain(
      'Coffer could not finish setting up your signing key',
    );
    expect(within(card()).queryByRole('button', { name: 'Share files' })).toBeNull();
    expect(session.pinsServer.stored).toBeNull();
  });
});
