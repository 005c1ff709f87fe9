/**
 * A name of this worker's own (`<prefix>worker-<uuid>`) for as long as it lives, held by a Web Lock
 * of that name; on the way the names of dead workers, whose locks are free, are removed (`remove`).
 * The name exists only once its worker holds the lock, so a worker starting meanwhile waits rather
 * than being taken for a dead one. Upload part files and download chunk files keep a folder of that
 * name, the download service worker's chunk cache a cache.
 */
export async function claimWorkerName(
  prefix: string,
  locks: Pick<LockManager, 'request'>,
  names: {
    /** The existing names (with the prefix). */
    list(): Promise<string[]>;
    remove(name: string): Promise<void>;
  },
): Promise<string> {
  const own = `${prefix}worker-${crypto.randomUUID()}`;
  await new Promise<void>((granted, refused) => {
    locks
      .request(own, () => {
        granted();
        // Held for as long as this worker lives.
        return new Promise<void>(() => undefined);
      })
      .catch(refused);
  });
  for (const name of await names.list()) {
    if (name === own) continue;
    // Removed only while holding its lock: a name whose lock is free belongs to a dead worker.
    await locks
      .request(name, { ifAvailable: true }, async (lock) => {
        if (lock !== null) await names.remove(name);
      })
      .catch(() => undefined);
  }
  return own;
}

/**
 * A worker's own folder in the origin private file system, below `rootName` (upload part files,
 * download chunk files): `worker-<uuid>`, claimed with {@link claimWorkerName} (its lock is
 * `<rootName>/worker-<uuid>`).
 */
export async function openWorkerFolder(
  rootName: string,
  storage: Pick<StorageManager, 'getDirectory'>,
  locks: Pick<LockManager, 'request'>,
): Promise<FileSystemDirectoryHandle> {
  const root = await storage.getDirectory();
  const folders = await root.getDirectoryHandle(rootName, { create: true });
  const prefix = `${rootName}/`;
  const own = await claimWorkerName(prefix, locks, {
    list: async () => {
      // Names first, then removals: some browsers list a folder in pages that a removal would shift.
      const names: string[] = [];
      for await (const name of (
        folders as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }
      ).keys()) {
        names.push(`${prefix}${name}`);
      }
      return names;
    },
    remove: (name) => folders.removeEntry(name.slice(prefix.length), { recursive: true }),
  });
  return folders.getDirectoryHandle(own.slice(prefix.length), { create: true });
}
