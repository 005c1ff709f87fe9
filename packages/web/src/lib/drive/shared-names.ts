import { unwrapFileKey } from '@coffer/crypto';
import { openSharedFileName } from './shared-file-name';

/** A received file's decrypted name and type. */
export interface SharedName {
  readonly name: string;
  readonly contentType: string;
}

/**
 * Decrypted names of files shared with me (issue 31), by file id and sealed metadata: opening one
 * costs an RSA unwrap, so each is opened once, when its card checks the share, and kept for the
 * list's search, filter and sort. Subscribe with `useSyncExternalStore`.
 */
export interface SharedNames {
  get: (fileId: string) => SharedName | undefined;
  /** Opens `encryptedMetadata` with the file key wrapped to me; cached by file id and metadata. */
  open(
    fileId: string,
    file: { nodeId?: string; encryptedMetadata?: string; name: string; contentType: string },
    encryptedFileKeyB64: string,
    privateKey: CryptoKey,
  ): Promise<SharedName | undefined>;
  subscribe: (listener: () => void) => () => void;
  /** Changes whenever a name is added. */
  getSnapshot: () => number;
  clear(): void;
}

export function createSharedNames(): SharedNames {
  const names = new Map<string, { sealed: string; name: SharedName }>();
  const listeners = new Set<() => void>();
  let version = 0;
  return {
    get: (fileId) => names.get(fileId)?.name,
    async open(fileId, file, encryptedFileKeyB64, privateKey) {
      const sealed = file.encryptedMetadata;
      if (sealed === undefined || file.nodeId === undefined) return undefined;
      const known = names.get(fileId);
      if (known?.sealed === sealed) return known.name;
      const fileKey = await unwrapFileKey(encryptedFileKeyB64, privateKey);
      const opened = await openSharedFileName(fileKey, file);
      const name = { name: opened.name, contentType: opened.contentType };
      names.set(fileId, { sealed, name });
      version += 1;
      for (const listener of listeners) listener();
      return name;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => version,
    clear() {
      names.clear();
      version += 1;
      for (const listener of listeners) listener();
    },
  };
}

/** The app's one cache (names die with the page; nothing is written to storage). */
export const sharedNames = createSharedNames();
