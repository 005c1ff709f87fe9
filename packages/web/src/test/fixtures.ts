/** Test data of the API's shapes, for component tests. Imported only by tests. */
import type { Contact, FileListItem, SharedFileItem, StatsResponse } from '@coffer/contracts';
import type { SessionUser } from '../session/current-user';

export const testUser: SessionUser = {
  id: 'user-1',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  color: '#1c7ed6',
  image: null,
  idTokenClaims: { idp: 'local', emails: ['grace@example.com'], country: 'GB' },
};

export function contact(overrides: Partial<Contact> & Pick<Contact, 'name' | 'email'>): Contact {
  return { color: '#0ca678', image: null, invited: false, ...overrides };
}

export function stats(overrides: {
  tier?: 'Free' | 'Personal';
  used?: number;
  storageLimit?: number;
  contacts?: number;
  maxContacts?: number;
  shares?: number;
  maxShares?: number;
  currentPeriodEnd?: string | null;
}): StatsResponse {
  return {
    subscription: {
      tier: overrides.tier ?? 'Free',
      limits: {
        storageLimit: overrides.storageLimit ?? 5,
        monthlyUploadLimit: 100,
        monthlyDownloadLimit: 500,
        maxContacts: overrides.maxContacts ?? 10,
        maxShares: overrides.maxShares ?? 20,
        maxConcurrentUploads: 1,
        currentPeriodEnd: overrides.currentPeriodEnd ?? null,
      },
    },
    storage: { used: overrides.used ?? 0 },
    transfers: { uploads: { count: 3 }, downloads: { count: 4 } },
    contacts: { count: overrides.contacts ?? 0 },
    sharing: { count: overrides.shares ?? 0 },
  };
}

export function fileItem(name: string, overrides: Partial<FileListItem> = {}): FileListItem {
  return {
    fileId: `file-${name}`,
    name,
    contentType: 'application/octet-stream',
    isEncrypted: true,
    size: 2048,
    uploadedAt: '2024-03-05T10:20:30.000Z',
    ownerId: 'user-1',
    ...overrides,
  };
}

export function sharedItem(
  name: string,
  owner: string,
  overrides: Partial<SharedFileItem['file']> = {},
): SharedFileItem {
  return {
    fileId: `shared-${name}`,
    owner,
    file: {
      name,
      contentType: 'application/octet-stream',
      size: 1024 * 1024 * 3,
      uploadedAt: '2024-03-05T10:20:30.000Z',
      isEncrypted: true,
      ...overrides,
    },
  };
}
