import { DEFAULT_CONTENT_TYPE } from '@coffer/contracts';
import { openMetadata, sanitizeDisplayName } from '@coffer/crypto';

/** What a file's served metadata answer carries of its node (own or shared). */
export interface SealedFileFields {
  readonly nodeId?: string;
  readonly encryptedMetadata?: string;
  readonly name: string;
  readonly contentType: string;
}

/**
 * The name and type to show and save a file under: its sealed metadata opened with the file key
 * (a recipient holds exactly that key: the owner's other names stay closed to them), or the clear
 * name of a file from before encrypted names. Sanitized for display and for saving.
 * @throws {MetadataInvalidError} the sealed metadata does not open with this key for this node.
 */
export async function openSharedFileName(
  fileKey: CryptoKey,
  file: SealedFileFields,
): Promise<{ name: string; contentType: string; sealed: boolean }> {
  if (file.nodeId === undefined || file.encryptedMetadata === undefined) {
    return { name: sanitizeDisplayName(file.name), contentType: file.contentType, sealed: false };
  }
  const metadata = await openMetadata(fileKey, file.nodeId, file.encryptedMetadata);
  return {
    name: sanitizeDisplayName(metadata.name),
    contentType: metadata.contentType ?? DEFAULT_CONTENT_TYPE,
    sealed: true,
  };
}
