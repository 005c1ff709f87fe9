import type { UploadItem } from '@coffer/contracts';
import { CofferCryptoError, unwrapFileKey } from '@coffer/crypto';
import { openSharedFileName } from './shared-file-name';

/**
 * The name of one of my uploads sent with sealed metadata (issue 31), which GET /users/uploads lists
 * as `encrypted`: its file key opened from the owner copy (`encryptionInfo`, one RSA-OAEP unwrap with
 * the key pair it names), then its metadata (bound to its node id). Sanitized for display. Undefined
 * for an upload without a node, one wrapped to another key pair, or one that does not open (a served
 * node that is not this file's): the list then keeps what the server said.
 */
export async function openUploadName(
  upload: UploadItem,
  keys: { readonly privateKey: CryptoKey; readonly keyVersion: string },
): Promise<string | undefined> {
  const { nodeId, encryptedMetadata } = upload;
  if (nodeId === undefined || encryptedMetadata === undefined) return undefined;
  if (upload.encryptionInfo.version !== keys.keyVersion) return undefined;
  try {
    const fileKey = await unwrapFileKey(upload.encryptionInfo.encryptedFileKey, keys.privateKey);
    const opened = await openSharedFileName(fileKey, {
      nodeId,
      encryptedMetadata,
      name: upload.fileName,
      contentType: upload.contentType,
    });
    return opened.name;
  } catch (error) {
    // What a served upload can cause (a wrap or metadata that does not open); anything else is a bug.
    if (!(error instanceof CofferCryptoError)) throw error;
    return undefined;
  }
}
