import { sanitizeDisplayName } from '@coffer/crypto';

/**
 * Names of the files this tab uploaded with sealed metadata, by their owner copy's wrapped key
 * (`encryptionInfo.encryptedFileKey`, unique per file): the server lists those uploads as
 * `encrypted` (GET /users/uploads carries no node), so the upload screen shows the name it knows.
 * In memory only; gone with the page.
 */
const names = new Map<string, string>();

export function rememberUploadName(encryptedFileKeyB64: string, name: string): void {
  names.set(encryptedFileKeyB64, sanitizeDisplayName(name));
}

/** The name this tab uploaded under that wrapped key, if it did. */
export function uploadNameOf(encryptedFileKeyB64: string): string | undefined {
  return names.get(encryptedFileKeyB64);
}
