import { useEffect, useMemo, useState } from 'react';
import { fileTypeOf, formatDateTime, formatSize } from '@coffer/contracts';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../lib/api/http';
import {
  checkNodeRecords,
  filesWithClearNames,
  loadDrive,
  migrateClearNames,
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

/** My files opened through lib/drive (the drive key from the unlocked session). */
export async function loadMyFileViews(api: ApiClient, keys: UnlockedKeys | null): Promise<DriveFileView[]> {
  const tree = await loadDrive(api, keys?.driveKey === undefined ? {} : { driveKey: keys.driveKey });
  return tree.files.map(toDriveFileView);
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
  useEffect(() => {
    let live = true;
    const nodes = files.flatMap((file) =>
      (file as Partial<DriveFileView>).drive === undefined ? [] : [(file as DriveFileView).drive],
    );
    if (ownerEmail === null || nodes.length === 0) return;
    void checkNodeRecords(nodes, ownerEmail, signingPublicKeyB64).then(
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
  }, [files, ownerEmail, signingPublicKeyB64]);
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
 * The clear-name migration (issue 31): once per unlock, in the background, my files that still have
 * a clear name on the server are sealed in batches; invisible unless it fails (a console warning;
 * the next unlock tries again). The list refreshes when some were sealed.
 */
export function useClearNameMigration(
  api: ApiClient,
  files: readonly FileView[],
  keys: UnlockedKeys | null,
  ownerEmail: string | null,
): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const driveKey = keys?.driveKey;
    const signingPrivateKey = keys?.signingPrivateKey;
    if (keys === null || driveKey === undefined || signingPrivateKey === undefined || ownerEmail === null)
      return;
    if (migrated.has(driveKey)) return;
    const clear = filesWithClearNames(
      files.flatMap((file) => {
        const drive = (file as Partial<DriveFileView>).drive;
        return drive === undefined ? [] : [drive.item];
      }),
    );
    if (clear.length === 0) return;
    migrated.add(driveKey);
    void migrateClearNames(api, clear, {
      driveKey,
      privateKey: keys.privateKey,
      ownerEmail,
      signingPrivateKey,
    }).then(
      async (result) => {
        if (result.failed > 0)
          console.warn(`Sealing names: ${result.failed} file(s) left for the next unlock`);
        if (result.migrated > 0) await queryClient.invalidateQueries({ queryKey: fileQueryKeys.list });
      },
      (error: unknown) => {
        console.warn('Sealing names failed; the next unlock tries again', error);
      },
    );
  }, [api, files, keys, ownerEmail, queryClient]);
}
