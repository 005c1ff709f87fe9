import {
  DEFAULT_CONTENT_TYPE,
  uploadMessages,
  type FileListItem,
  type NewEncryptionInfo,
  type RequestFileMetadata,
} from '@coffer/contracts';
import {
  buildOwnerEncryptionInfo,
  generateChunkIdentityKey,
  generateFileKey,
  sealMetadata,
  wrapFileKey,
} from '@coffer/crypto';
import { transferFormat, type TestFormatOverrides } from './format-overrides';
import { createProgressReporter } from './progress';
import { TransferError } from './transfer-errors';
import { throwIfAborted, type UploadContext } from './upload/upload-context';
import { uploadDirect, uploadMultipart } from './upload/upload-run';
import { recordingJournal } from './upload-journal';
import { browserUploadLocks } from './upload-locks';
import { runContext, type UploadRunOptions } from './upload-options';
import { fileHandleOf, type UploadRecordStore } from './upload-records';
import { signUploadManifest } from '../trust/signed-files';
import { newNodeId, rememberUploadName, type NodeParent } from '../drive';
import { sealedUploadNode } from '../drive/file-node';

/**
 * The owner's key material an upload needs, from the unlocked encryption session. Either may be
 * missing (encryption locked, key not loaded): the upload then fails with the spec's texts.
 */
export interface UploadKeys {
  /** The owner's RSA-OAEP public key: every file key is wrapped to it. */
  readonly publicKey: CryptoKey | null | undefined;
  /** Id of that key pair (`encryptionInfo.version`). */
  readonly keyVersion: string | null | undefined;
  /** Signs the file's manifest (issue 13); absent for a key record without a signing key. */
  readonly signing?: { readonly ownerEmail: string; readonly signingPrivateKey: CryptoKey };
  /**
   * The drive key (issue 31): a file uploaded with a signing key gets a node under it (at the top
   * of My Files), or under `parent`. Without either, the name goes in clear (as before issue 31).
   */
  readonly driveKey?: CryptoKey;
}

export interface UploadOptions extends UploadRunOptions {
  readonly keys: UploadKeys;
  /** Where multipart uploads are recorded so they can be resumed; none: not resumable. */
  readonly records?: UploadRecordStore | null;
  /** The folder to upload into (its node id and key); default the top of My Files (the drive key). */
  readonly parent?: NodeParent;
  /**
   * A file request's upload (issue 30): the uploader holds no key of the owner's drive and signs
   * nothing, so the name and type go sealed under the file key for a new node id (`sealedMetadata`)
   * and the owner's browser places the file later. No clear name is sent.
   */
  readonly forRequest?: boolean;
}

/** What a resumed upload checks the re-opened file against. */
function fileIdentity(file: File, chunkSize: number, encryptionInfo: NewEncryptionInfo) {
  const handle = fileHandleOf(file);
  return {
    fileName: file.name,
    size: file.size,
    lastModified: file.lastModified,
    chunkSize,
    encryptedFileKey: encryptionInfo.encryptedFileKey,
    keyVersion: encryptionInfo.version,
    ...(handle === undefined ? {} : { handle }),
  };
}

/** Checks the spec's preconditions of an upload; throws a PRECONDITION error with its text. */
export function assertUploadKeys(keys: UploadKeys): { publicKey: CryptoKey; keyVersion: string } {
  if (keys.publicKey === null || keys.publicKey === undefined) {
    throw new TransferError('PRECONDITION', uploadMessages.encryptionNotInitialized);
  }
  if (keys.keyVersion === null || keys.keyVersion === undefined || keys.keyVersion === '') {
    throw new TransferError('PRECONDITION', uploadMessages.encryptionVersionUnavailable);
  }
  return { publicKey: keys.publicKey, keyVersion: keys.keyVersion };
}

/** Whether a file of this size takes the multipart path (and so the upload queue). */
export function isLargeUpload(size: number, testFormat?: TestFormatOverrides): boolean {
  return size > transferFormat(testFormat).directUploadThreshold;
}

/**
 * Encrypts and uploads one file: a fresh file key wrapped to the owner's public key, the content
 * encrypted chunk by chunk in the crypto worker; direct POST up to 100 MB, multipart above.
 * Resolves with the stored file; progress goes to `onProgress` (spec texts, ≥ 0.5% steps).
 * @throws {TransferAbortedError} when `signal` aborts (multipart: after the server-side abort).
 * @throws {TransferError} with the user-facing text of spec section 8.
 */
export async function uploadFile(options: UploadOptions): Promise<FileListItem> {
  const reporter = createProgressReporter(options.onProgress, uploadMessages.preparing);
  const { publicKey, keyVersion } = assertUploadKeys(options.keys);
  const format = transferFormat(options.testFormat);

  const fileKey = await generateFileKey();
  const encryptionInfo: NewEncryptionInfo = buildOwnerEncryptionInfo(
    keyVersion,
    await wrapFileKey(fileKey, publicKey),
  );
  const contentType = options.file.type === '' ? DEFAULT_CONTENT_TYPE : options.file.type;
  const { signing, driveKey } = options.keys;
  const parent = options.parent ?? (driveKey === undefined ? undefined : { nodeId: null, key: driveKey });
  // What identifies the file, signed before any byte leaves: the recipient's app checks it later.
  // With sealed metadata, a version 2 manifest signs the sealed metadata's hash (no clear name) and
  // the node record names the manifest; without (no drive key yet), version 1 names it in clear.
  const sealed =
    signing === undefined || parent === undefined
      ? undefined
      : await sealedUploadNode({
          fileKey,
          name: options.file.name,
          contentType,
          parent,
          ownerEmail: signing.ownerEmail,
          signingPrivateKey: signing.signingPrivateKey,
          size: options.file.size,
          encryptionInfo,
        });
  const manifest =
    sealed?.manifest ??
    (signing === undefined
      ? undefined
      : await signUploadManifest(
          { name: options.file.name, contentType, size: options.file.size, encryptionInfo },
          signing.ownerEmail,
          signing.signingPrivateKey,
        ));
  const node = sealed?.node;
  if (node !== undefined) rememberUploadName(encryptionInfo.encryptedFileKey, options.file.name);
  const sealedMetadata =
    options.forRequest === true ? await requestMetadata(fileKey, options.file.name, contentType) : undefined;
  throwIfAborted(options.signal);

  const context: UploadContext = {
    ...runContext(options, reporter, format.chunkSize),
    contentType,
    fileKey,
    encryptionInfo,
    ...(manifest === undefined ? {} : { manifest }),
    ...(node === undefined ? {} : { node }),
    ...(sealedMetadata === undefined ? {} : { sealedMetadata }),
    locks: options.locks ?? browserUploadLocks(),
  };
  const large = isLargeUpload(options.file.size, options.testFormat);
  const records = options.records ?? null;
  const stored = large
    ? await uploadMultipart(
        records === null
          ? context
          : {
              ...context,
              journal: recordingJournal(
                records,
                fileIdentity(options.file, format.chunkSize, encryptionInfo),
                await generateChunkIdentityKey(),
              ),
            },
      )
    : await uploadDirect(context);
  reporter.finish(uploadMessages.complete);
  return stored;
}

/** A file request upload's name and type, sealed under its file key for a node id of its own. */
async function requestMetadata(
  fileKey: CryptoKey,
  name: string,
  contentType: string,
): Promise<RequestFileMetadata> {
  const nodeId = newNodeId();
  return { nodeId, encryptedMetadata: await sealMetadata(fileKey, nodeId, { name, contentType }) };
}
