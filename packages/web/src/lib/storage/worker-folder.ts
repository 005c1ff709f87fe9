/**
 * A worker's own folder in the origin private file system, below `rootName` (upload part files,
 * download chunk files). Each worker that keeps files there makes `worker-<uuid>` once it holds that
 * folder's Web Lock, for as long as it lives; on the way it removes the folders of dead workers, whose
 * locks are free. A folder exists only once its worker holds the lock, so a worker starting meanwhile
 * waits rather than being taken for a dead one.
 */
export async function openWorkerFolder(
  rootName: string,
  storage: Pick<StorageManager, 'getDirectory'>,
  locks: Pick<LockManager, 'request'>,
): Promise<FileSystemDirectoryHandle> {
  const root = await storage.getDirectory();
  const folders = await root.getDirectoryHandle(rootName, { create: true });
  const lockName = (folder: string): string => `${rootName}/${folder}`;
  const own = `worker-${crypto.randomUUID()}`;
  await new Promise<void>((granted, refused) => {
    locks
      .request(lockName(own), () => {
        granted();
        // Held for as long as this worker lives.
        return new Promise<void>(() => undefined);
      })
      .catch(refused);
  });
  // Names first, then removals: some browsers list a folder in pages that a removal would shift.
  const names: string[] = [];
  for await (const name of (
    folders as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }
  ).keys()) {
    if (name !== own) names.push(name);
  }
  for (const name of names) {
    // Removed only while holding its lock: a folder whose lock is free belongs to a dead worker.
    await locks
      .request(lockName(name), { ifAvailable: true }, async (lock) => {
        if (lock !== null) await folders.removeEntry(name, { recursive: true });
      })
      .catch(() => undefined);
  }
  return folders.getDirectoryHandle(own, { create: true });
}
