import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FileMetadata, ShareFileRequest, ShareFilesRequest } from '@coffer/contracts';
import { exportPublicKeyB64, generateFileKey, unwrapFileKey, wrapFileKey } from '@coffer/crypto';
import { createTestAppSession, type TestAppSession } from '../../session/testing/test-session';
import type { ContactView } from '../../lib/contacts/contact-status';
import { recipientKeyPair } from '../../lib/transfers/testing/keys';
import { makeTrustIdentity, servedKeyOf } from '../../lib/trust/testing/trust-identities';
import {
  apiError,
  contact,
  createFakeApi,
  fileItem,
  findSnackbar,
  renderScreen,
  type FakeApi,
} from '../../test/render-screen';
import { ContactShareFilesModal } from './ContactShareFilesModal';
import { ShareFilesModal } from './ShareFilesModal';

const ada = contact({ name: 'Ada Lovelace', email: 'ada@example.com' });
const alan = contact({ name: 'Alan Turing', email: 'alan@example.com' });
const eve = contact({ name: 'Eve Unverified', email: 'eve@example.com' });
const report = fileItem('report.pdf');
const photo = fileItem('photo.png', { uploadedAt: '2024-01-01T00:00:00.000Z' });
const legacy = fileItem('legacy.txt', { isEncrypted: false, uploadedAt: '2023-01-01T00:00:00.000Z' });
const keyPath = (email: string) => `GET /users/keys/public/${encodeURIComponent(email)}`;

let session: TestAppSession;
let recipientPublicKeyB64: string;
let ownerCopy: string;
let user: ReturnType<typeof userEvent.setup>;

beforeAll(async () => {
  session = await createTestAppSession({ unlocked: true });
  const recipient = await recipientKeyPair();
  recipientPublicKeyB64 = await exportPublicKeyB64(recipient.publicKey);
  const ownerPublicKey = session.encryption.publicKey;
  if (ownerPublicKey === null) throw new Error('the test session is not unlocked');
  ownerCopy = await wrapFileKey(await generateFileKey(), ownerPublicKey);
});
beforeEach(() => {
  user = userEvent.setup({ delay: null });
});
afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

function metadata(file: typeof report, encrypted = true): FileMetadata {
  return {
    fileId: file.fileId,
    name: file.name,
    originalFilename: file.name,
    contentType: file.contentType,
    size: file.size,
    isEncrypted: file.isEncrypted,
    uploadedAt: file.uploadedAt,
    encryptionInfo: encrypted
      ? { version: 'key-1', algorithm: 'AES-GCM', iv: '', encryptedFileKey: ownerCopy }
      : null,
  };
}

/** Ada and Alan are verified (Alan already has report.pdf); Eve has no key. */
function apiWith(): FakeApi {
  const api = createFakeApi({
    'GET /users/files?limit=500': () => ({ files: [report, photo, legacy], count: 3 }),
    'GET /users/contacts': () => ({ contacts: [ada, alan, eve] }),
    [keyPath(ada.email)]: () => ({ publicKey: recipientPublicKeyB64, keyId: 'ada-key' }),
    [keyPath(alan.email)]: () => ({ publicKey: recipientPublicKeyB64, keyId: 'alan-key' }),
    [keyPath(eve.email)]: () => {
      throw apiError(404, 'KEYS_NOT_FOUND');
    },
    [`GET /users/files/${report.fileId}/shares`]: () => ({
      shares: [{ email: alan.email, name: alan.name }],
    }),
    [`GET /users/files/${photo.fileId}/shares`]: () => ({ shares: [] }),
    [`GET /users/files/${legacy.fileId}/shares`]: () => ({ shares: [] }),
    [`GET /users/files/${report.fileId}`]: () => metadata(report),
    [`GET /users/files/${photo.fileId}`]: () => metadata(photo),
    [`POST /users/files/${report.fileId}/share`]: () => ({ ok: true }),
    [`POST /users/files/${photo.fileId}/share`]: () => ({ ok: true }),
    'GET /users/stats': () => ({}),
  });
  return api;
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name });

async function openFor(fileIds: string[], api = apiWith()): Promise<{ api: FakeApi; dialog: HTMLElement }> {
  renderScreen(<ShareFilesModal opened onClose={() => undefined} initialFileIds={fileIds} />, {
    api,
    session,
  });
  const dialog = await screen.findByRole('dialog', { name: 'Share files' });
  await within(dialog).findByRole('checkbox', { name: 'Ada Lovelace' });
  // Wait for the key lookups, key checks (pinning on first sight) and share lists to settle; the
  // timeout is a ceiling for a busy machine.
  await waitFor(
    () => {
      expect((checkbox('Ada Lovelace') as HTMLInputElement).disabled).toBe(false);
      expect(within(dialog).getByText('eve@example.com · Unverified')).toBeTruthy();
    },
    { timeout: 10_000 },
  );
  if (fileIds.includes(report.fileId)) {
    await waitFor(() => {
      expect((checkbox('Alan Turing') as HTMLInputElement).disabled).toBe(true);
    });
  }
  return { api, dialog };
}

describe('Share files modal', () => {
  it('offers only verified contacts that do not have the file yet, and no unencrypted file', async () => {
    const { dialog } = await openFor([report.fileId]);
    expect((checkbox('report.pdf') as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByText('alan@example.com · Already shared')).toBeTruthy();
    expect((checkbox('Eve Unverified') as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText('eve@example.com · Unverified')).toBeTruthy();
    expect((checkbox('legacy.txt') as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).getByText('Cannot share unencrypted file')).toBeTruthy();
    // No contact chosen: Share is disabled.
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Share' }).disabled).toBe(true);

    // With photo.png chosen too, Alan has something new and can be picked (once his key is checked).
    await user.click(checkbox('photo.png'));
    await waitFor(
      () => {
        expect((checkbox('Alan Turing') as HTMLInputElement).disabled).toBe(false);
      },
      { timeout: 10_000 },
    );
  });

  it('re-wraps the file key to the contact and posts it with the contact key id', async () => {
    const { api, dialog } = await openFor([report.fileId]);
    await user.click(checkbox('Ada Lovelace'));
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    // A ceiling only: RSA re-wrapping on a busy machine can take more than the default second.
    expect(
      await findSnackbar('report.pdf shared successfully with Ada Lovelace', 'status', 5000),
    ).toBeTruthy();

    const [post] = api.callsTo(`POST /users/files/${report.fileId}/share`);
    const body = post?.body as ShareFileRequest;
    expect(body.email).toBe('ada@example.com');
    expect(body.keyVersion).toBe('ada-key');
    expect(body.encryptedFileKey).not.toBe(ownerCopy);
    const recipient = await recipientKeyPair();
    await expect(unwrapFileKey(body.encryptedFileKey, recipient.privateKey)).resolves.toBeTruthy();
  });

  it("shares a contact's several files in one request, so they get one mail", async () => {
    const api = apiWith().on('POST /users/shares', () => ({ ok: true }));
    const { dialog } = await openFor([photo.fileId], api);
    await user.click(checkbox('report.pdf'));
    await user.click(checkbox('Ada Lovelace'));
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(
      await findSnackbar('photo.png shared successfully with Ada Lovelace', 'status', 5000),
    ).toBeTruthy();
    const [batch, ...more] = api.callsTo('POST /users/shares');
    expect(more).toEqual([]);
    const body = batch?.body as ShareFilesRequest;
    expect(body.email).toBe('ada@example.com');
    expect(body.files.map((f) => [f.fileId, f.keyVersion])).toEqual([
      [report.fileId, 'ada-key'],
      [photo.fileId, 'ada-key'],
    ]);
    expect(api.callsTo(`POST /users/files/${report.fileId}/share`)).toEqual([]);
    expect(api.callsTo(`POST /users/files/${photo.fileId}/share`)).toEqual([]);
  });

  it('maps a failed share through the spec error texts', async () => {
    const api = apiWith().on(`POST /users/files/${report.fileId}/share`, () => {
      throw apiError(500, 'SHARE_FAILED');
    });
    const { dialog } = await openFor([report.fileId], api);
    await user.click(checkbox('Ada Lovelace'));
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await findSnackbar('Failed to share file. Please try again.')).toBeTruthy();
    // The modal stays open after a failure.
    expect(screen.getByRole('dialog', { name: 'Share files' })).toBeTruthy();
  });

  it('says File encryption key not found in metadata when the file has no stored key', async () => {
    const api = apiWith().on(`GET /users/files/${report.fileId}`, () => metadata(report, false));
    const { dialog } = await openFor([report.fileId], api);
    await user.click(checkbox('Ada Lovelace'));
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await findSnackbar('File encryption key not found in metadata')).toBeTruthy();
    expect(api.callsTo(`POST /users/files/${report.fileId}/share`)).toEqual([]);
  });

  it('from a contact: only files are picked, and nothing new says No new files to share', async () => {
    const alanView: ContactView = {
      ...alan,
      status: 'verified',
      publicKey: recipientPublicKeyB64,
      keyId: 'alan-key',
    };
    const api = apiWith();
    renderScreen(<ContactShareFilesModal opened onClose={() => undefined} contact={alanView} />, {
      api,
      session,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Share files with Alan Turing' });
    expect(within(dialog).queryByRole('checkbox', { name: 'Ada Lovelace' })).toBeNull();
    // Size and upload time beside the name tell same-named files apart.
    await within(dialog).findByText(/^2\.00 KB · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} · Already shared$/);
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Share' }).disabled).toBe(true);
    await user.click(checkbox('report.pdf'));
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await findSnackbar('No new files to share', 'status')).toBeTruthy();
    expect(api.callsTo(`POST /users/files/${report.fileId}/share`)).toEqual([]);
  });

  it('from a contact: shows the exact address and the safety number of the key it encrypts for', async () => {
    const alanView: ContactView = {
      ...alan,
      email: 'alan+work@example.com',
      status: 'verified',
      publicKey: recipientPublicKeyB64,
      keyId: 'alan-key',
    };
    renderScreen(<ContactShareFilesModal opened onClose={() => undefined} contact={alanView} />, {
      api: apiWith(),
      session,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Share files with Alan Turing' });
    expect(within(dialog).getByText('alan+work@example.com')).toBeTruthy();
    const safetyNumber = await within(dialog).findByLabelText('Safety number');
    expect(safetyNumber.textContent).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
  });

  it('shares with several contacts one at a time', async () => {
    const { api, dialog } = await openFor([photo.fileId]);
    const order: string[] = [];
    api.on(`POST /users/files/${photo.fileId}/share`, (call) => {
      order.push((call.body as ShareFileRequest).email);
      return { ok: true };
    });
    await user.click(checkbox('Ada Lovelace'));
    await user.click(checkbox('Alan Turing'));
    const started = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await findSnackbar('photo.png shared successfully with Alan Turing', 'status', 4000)).toBeTruthy();
    expect(order).toEqual(['ada@example.com', 'alan@example.com']);
    // The 1-second pause between the two contacts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('says when a contact from the Contacts screen has no key', async () => {
    const eveView: ContactView = { ...eve, status: 'unverified', publicKey: null, keyId: null };
    renderScreen(<ContactShareFilesModal opened onClose={() => undefined} contact={eveView} />, {
      api: apiWith(),
      session,
    });
    expect(await screen.findByText('Cannot share with unverified contact: Eve Unverified')).toBeTruthy();
  });

  it('does not offer a contact whose key changed (not accepted), saying why; once accepted, it is', async () => {
    const bob = contact({ name: 'Bob Changed', email: 'bob.changed@example.com' });
    // Bob was pinned with another key; the server now serves a different one.
    const earlier = await makeTrustIdentity(bob.email);
    await session.trust.pin(bob.email, servedKeyOf(earlier), 'verified');
    const served = { publicKey: recipientPublicKeyB64, keyId: 'bob-new-key' };
    const api = apiWith()
      .on('GET /users/contacts', () => ({ contacts: [ada, alan, eve, bob] }))
      .on(keyPath(bob.email), () => served);
    const first = renderScreen(
      <ShareFilesModal opened onClose={() => undefined} initialFileIds={[photo.fileId]} />,
      { api, session },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Share files' });
    // Ceilings only: each key check pins (RSA and signing work), slow on a busy machine.
    expect(
      await within(dialog).findByText(
        'bob.changed@example.com · Key changed: accept it on the Contacts page first',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect((checkbox('Bob Changed') as HTMLInputElement).disabled).toBe(true);
    // Others stay available.
    await waitFor(
      () => {
        expect((checkbox('Ada Lovelace') as HTMLInputElement).disabled).toBe(false);
      },
      { timeout: 10_000 },
    );
    first.unmount();

    // Accepted on the Contacts page: offered again.
    await session.trust.pin(bob.email, served, 'key-changed-accepted');
    renderScreen(<ShareFilesModal opened onClose={() => undefined} initialFileIds={[photo.fileId]} />, {
      api,
      session,
    });
    const reopened = await screen.findByRole('dialog', { name: 'Share files' });
    await within(reopened).findByRole('checkbox', { name: 'Bob Changed' }, { timeout: 10_000 });
    await waitFor(
      () => {
        expect((checkbox('Bob Changed') as HTMLInputElement).disabled).toBe(false);
      },
      { timeout: 10_000 },
    );
    expect(within(reopened).getByText('bob.changed@example.com')).toBeTruthy();
  });

  it('from a contact whose key changed: says why, and Share stays disabled', async () => {
    const carol = contact({ name: 'Carol Changed', email: 'carol.changed@example.com' });
    const earlier = await makeTrustIdentity(carol.email);
    await session.trust.pin(carol.email, servedKeyOf(earlier), 'tofu');
    const carolView: ContactView = {
      ...carol,
      status: 'verified',
      publicKey: recipientPublicKeyB64,
      keyId: 'carol-new-key',
    };
    const api = apiWith();
    renderScreen(<ContactShareFilesModal opened onClose={() => undefined} contact={carolView} />, {
      api,
      session,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Share files with Carol Changed' });
    const alert = await within(dialog).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toContain('The key of carol.changed@example.com has changed');
    await user.click(checkbox('photo.png'));
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Share' }).disabled).toBe(true);
    expect(api.callsTo(`POST /users/files/${photo.fileId}/share`)).toEqual([]);
  });
});
