import { useEffect, useMemo, useState } from 'react';
import { fileTypeOf, formatDateTime, formatSize } from '@coffer/contracts';
import {
  experimental_streamedQuery as streamedQuery,
  useQueryClient,
  type QueryFunction,
} from '@tanstack/react-query';
import type { ApiClient } from '../../lib/api/http';
import {
  createRecordChecker,
  filesWithClearManifests,
  filesWithClearNames,
  loadDrivePages,
  migrateClearNames,
  resignClearManifests,
  type DriveFile,
  type RecordState,
} from '../../lib/drive';
import type { FileView } from '../../lib/files/file-views';
import { fileQueryKeys } from '../../lib/files/query-keys';
import type { UnlockedKeys } from '../../lib/encryption/unlocked-keys';

/** One of my files as the screens show it, with where its name came from (issue 31). */
export interface DriveFileView extends FileView {
  readonly drive: DriveFile;
  /** The node record's verdict, once checked (`checking` until then). */
  readonly record?: RecordState;
}

/** A drive file as a card shows it: the decrypted name is the title, searched, filtered and sorted on. */
export function toDriveFileView(file: DriveFile): DriveFileView {
  return {
    id: file.fileId,
    title: file.name,
    name: file.name,
    fileType: fileTypeOf(file.name),
    contentType: file.contentType,
    size: formatSize(file.size),
    sizeBytes: file.size,
    isEncrypted: file.item.isEncrypted,
    datetime: formatDateTime(file.uploadedAt),
    uploadedAt: file.uploadedAt,
    drive: file,
  };
}

/**
 * The query function of my files (issue 31, 10,000 files): opened through lib/drive a page at a
 * time, and each page added to the list as soon as its names are open, so the first screen shows
 * after the first page (newest first, the default order). The query is a success from the first
 * page on and keeps fetching until the last (`isFetching`); a refetch keeps the list shown until
 * the new one is complete.
 */
export function myFileViewsQueryFn(
  api: ApiClient,
  keys: UnlockedKeys | null,
): QueryFunction<readonly DriveFileView[]> {
  return streamedQuery<DriveFileView[], DriveFileView[]>({
    // The signal is read so that leaving My Files drops a load still running (TanStack Query then
    // puts the list back as it was) instead of letting it end unseen: ending after an upload's
    // refresh, it would mark the list from before that upload fresh (every answer clears the refresh
    // mark), and the new file would stay missing for the list's 30 s. A dropped load also marks the
    // list for a new one: what TanStack puts back may be the first pages of a first load only.
    streamFn: async function* ({ signal, client, queryKey }) {
      signal.addEventListener('abort', () => {
        client.getQueryCache().find({ queryKey, exact: true })?.invalidate();
      });
      const drive = loadDrivePages(api, keys?.driveKey === undefined ? {} : { driveKey: keys.driveKey });
      // The first page at once (the first screen), the rest together: each addition re-renders the
      // whole list, and 19 of them cost far more than the pages (bench: 66 s against 4 s at load 18).
      const rest: DriveFileView[] = [];
      let first = true;
      for await (const page of drive) {
        if (signal.aborted) return;
        if (first) yield page.map(toDriveFileView);
        else rest.push(...page.map(toDriveFileView));
        first = false;
      }
      if (rest.length > 0) yield rest;
    },
    refetchMode: 'replace',
    reducer: (list, page) => [...list, ...page],
    initialValue: [],
  });
}

/**
 * The node records of the listed files, verified in the background after the names show (the
 * first screen does not wait for 10,000 signature checks); views gain `record` as it lands.
 */
export function useCheckedRecords(
  files: readonly FileView[],
  ownerEmail: string | null,
  signingPublicKeyB64: string | undefined,
): readonly FileView[] {
  const [records, setRecords] = useState<ReadonlyMap<string, RecordState> | null>(null);
  // One checker per signer: as the list grows a page at a time, each record is checked once.
  const checker = useMemo(
    () => (ownerEmail === null ? null : createRecordChecker(ownerEmail, signingPublicKeyB64)),
    [ownerEmail, signingPublicKeyB64],
  );
  useEffect(() => {
    let live = true;
    const nodes = files.flatMap((file) =>
      (file as Partial<DriveFileView>).drive === undefined ? [] : [(file as DriveFileView).drive],
    );
    if (checker === null || nodes.length === 0) return;
    void checker.check(nodes).then(
      (checked) => {
        if (live) setRecords(checked);
      },
      (error: unknown) => {
        console.warn('Node records could not be checked', error);
      },
    );
    return () => {
      live = false;
    };
  }, [files, checker]);
  return useMemo(
    () =>
      records === null
        ? files
        : files.map((file) => {
            const record = records.get(file.id);
            return record === undefined ? file : { ...file, record };
          }),
    [files, records],
  );
}

/** Drive keys whose migration already ran: once per unlock (a new unlock is a new key object). */
const migrated = new WeakSet<CryptoKey>();

/**
 * The clear-name migration (issue 31): once per unlock, when the whole list is in, in the background,
 * my files that still have a clear name on the server are sealed in batches, and those an older
 * client's migration left with a version 1 manifest (the clear name) are signed again; invisible
 * unless it fails (a console warning; the next unlock tries again). The list refreshes when some were
 * sealed or signed again.
 */
export function useClearNameMigration(
  api: ApiClient,
  files: readonly FileView[],
  keys: UnlockedKeys | null,
  ownerEmail: string | null,
  /** Every page of the list is in (the migration looks at the whole list, once per unlock). */
  complete: boolean,
): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const driveKey = keys?.driveKey;
    const signingPrivateKey = keys?.signingPrivateKey;
    const signingPublicKeyB64 = keys?.signingPublicKeyB64;
    if (!complete) return;
    if (keys === null || driveKey === undefined || signingPrivateKey === undefined || ownerEmail === null)
      return;
    if (signingPublicKeyB64 === undefined) return;
    if (migrated.has(driveKey)) return;
    const driveFiles = files.flatMap((file) => {
      const drive = (file as Partial<DriveFileView>).drive;
      return drive === undefined ? [] : [drive];
    });
    const clear = filesWithClearNames(driveFiles.map((drive) => drive.item));
    // Files an older client's migration placed with their version 1 manifest (the clear name) kept.
    const clearManifests = filesWithClearManifests(driveFiles);
    if (clear.length === 0 && clearManifests.length === 0) return;
    migrated.add(driveKey);
    const signer = { ownerEmail, signingPrivateKey, signingPublicKeyB64 };
    void Promise.all([
      migrateClearNames(api, clear, { ...signer, driveKey, privateKey: keys.privateKey }),
      resignClearManifests(api, clearManifests, signer),
    ]).then(
      async ([result, repair]) => {
        if (result.failed > 0)
          console.warn(`Sealing names: ${result.failed} file(s) left for the next unlock`);
        if (repair.failed > 0)
          console.warn(`Signing manifests again: ${repair.failed} file(s) did not check out or failed`);
        if (result.migrated + repair.repaired > 0) {
          await queryClient.invalidateQueries({ queryKey: fileQueryKeys.list });
          // The cards' own-file checks read the manifest, which changed.
          await queryClient.invalidateQueries({ queryKey: ['own-file-check'] });
        }
      },
      (error: unknown) => {
        console.warn('Sealing names failed; the next unlock tries again', error);
      },
    );
  }, [api, files, keys, ownerEmail, queryClient, complete]);
}
