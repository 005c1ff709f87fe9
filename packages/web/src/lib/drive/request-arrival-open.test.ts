import type { FileListItem } from '@coffer/contracts';
import { createDriveKey, generateUserKeyPair } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { openDrive } from './drive-open';

// Issue 30: a file that came through a file request and is not placed yet (a node id and the
// uploader's sealed metadata, no wrap, no record) is listed as a file to place, not as an
// unreadable node: the migration places it and the list opens its name.

describe('a file request arrival in My Files', () => {
  it('shows as a clear file without a node until it is placed', async () => {
    const driveKey = (await createDriveKey([(await generateUserKeyPair()).publicKey])).driveKey;
    const arrival: FileListItem = {
      fileId: 'f1',
      name: 'encrypted',
      contentType: 'application/octet-stream',
      isEncrypted: true,
      size: 10,
      uploadedAt: '2026-11-27T08:00:00.000Z',
      ownerId: 'owner',
      nodeId: '00000000-0000-4000-8000-000000000001',
      encryptedMetadata: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    };
    const { files } = await openDrive([arrival], [], driveKey);
    expect(files[0]).toMatchObject({ state: 'clear', nodeId: null, name: 'encrypted' });
  });
});
