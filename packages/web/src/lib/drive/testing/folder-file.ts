import type { SharedFolderFile } from '@coffer/contracts';
import { generateFileKey } from '@coffer/crypto';
import { fileNodeFor } from '../file-node';

/**
 * Tests only: a file `f-<name>` placed under `parent` (its key wrapped there, its name sealed, its node
 * record signed by `signer`), as GET /users/folders/shared/{nodeId}/nodes lists it.
 */
export async function folderFile(
  parent: { nodeId: string; key: CryptoKey },
  name: string,
  signer: { ownerEmail: string; signingPrivateKey: CryptoKey },
): Promise<SharedFolderFile> {
  const node = await fileNodeFor({
    fileKey: await generateFileKey(),
    name,
    contentType: 'text/plain',
    parent,
    ownerEmail: signer.ownerEmail,
    signingPrivateKey: signer.signingPrivateKey,
  });
  return { fileId: `f-${name}`, ...node, size: 3, uploadedAt: '2026-11-27T06:00:00.000Z' };
}
