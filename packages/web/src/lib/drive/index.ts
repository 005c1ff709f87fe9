/**
 * lib/drive: my drive with its names decrypted (issue 31, docs/key-hierarchy.md).
 *
 * The server lists files and folders with sealed metadata; this room opens them with the drive key
 * (two AES-GCM operations per node, no RSA), checks every signed node record against my own
 * signing key, and gives features a tree. Names are `sanitizeDisplayName`d before anything shows
 * them. A node that does not open is `unreadable` (never a name the server chose); an old file with
 * a clear name is `clear` until `migrateClearNames` seals it.
 *
 * Use:
 * - `loadDrive(api, { driveKey })` → `DriveTree` (`files`, `folders`, `byParent.get(null | nodeId)`,
 *   `search(text)` across every folder); then `withCheckedRecords(tree, email, signingPublicKeyB64)`
 *   fills `records` (file id or folder node id → `valid` | `tampered` | `none`).
 * - `loadDrivePages(api, { driveKey })`: my files a page at a time, each opened while the next arrives
 *   (My Files shows its first screen after one page); `createRecordChecker(email, key).check(nodes)`
 *   checks the records of a list that grows, each node once. Timings: User Timing `coffer:drive:*`.
 * - `fileNodeFor({ fileKey, name, contentType, parent, ownerEmail, signingPrivateKey, manifestJson })`
 *   → the `node` of an upload; `parent` is `{ nodeId: null, key: driveKey }` at the top or a folder's
 *   `{ nodeId, key: folder.folderKey }`.
 * - `migrateClearNames(api, filesWithClearNames(items), keys)`: the background migration;
 *   `resignClearManifests(api, filesWithClearManifests(driveFiles), signer)`: the repair of files an
 *   older migration placed with their version 1 manifest (its clear name) left on the server.
 * - `openSharedFileName(fileKey, file)`: a recipient's view of a shared file's sealed name;
 *   `sharedNames` caches them for Shared With Me (one RSA unwrap per received file, when its card checks it).
 */
export { driveApi } from './drive-api';
export { loadDrive, loadDrivePages, withCheckedRecords, type DriveKeys } from './drive-load';
export {
  UNREADABLE_FILE_NAME,
  UNREADABLE_FOLDER_NAME,
  type DriveFile,
  type DriveFolder,
  type DriveNode,
  type NodeState,
  type RecordState,
} from './drive-nodes';
export { openDrive } from './drive-open';
export { checkNodeRecords, createRecordChecker, type RecordChecker } from './drive-records';
export { buildDriveTree, searchForm, type DriveChildren, type DriveTree } from './drive-tree';
export { fileNodeFor, type FileNodeInput, type NodeParent } from './file-node';
export {
  filesWithClearNames,
  migrateClearNames,
  MIGRATION_BATCH_SIZE,
  type MigrationKeys,
  type MigrationResult,
} from './clear-name-migration';
export { filesWithClearManifests, resignClearManifests, type RepairResult } from './manifest-repair';
export { cryptoParentId, newNodeId } from './node-place';
export { openSharedFileName } from './shared-file-name';
export { rememberUploadName, uploadNameOf } from './upload-names';
export { openUploadName } from './upload-item-name';
export { createSharedNames, sharedNames, type SharedName, type SharedNames } from './shared-names';
export {
  changeFile,
  createFolder,
  deleteFolder,
  folderNameProblem,
  moveFolder,
  renameFolder,
  MAX_FOLDER_NAME_LENGTH,
  type ChangeSigner,
} from './drive-changes';
export { folderPath, foldersBelow, nodeParent } from './drive-paths';
export {
  folderSharesApi,
  openSharedFolder,
  openSharedFolderTree,
  shareFolder,
  type FolderRecipient,
  type OpenedSharedFolder,
  type Recipient,
  type SharedFolderTree,
} from './folder-shares';
