import { describe, expect, it } from 'vitest';
import * as api from '../index.js';

describe('public API: the key hierarchy', () => {
  it('exports the drive functions and constants', () => {
    const functions = [
      'createDriveKey',
      'unwrapDriveKey',
      'rewrapDriveKey',
      'signDriveKeyRecord',
      'verifyDriveKeyRecord',
      'parseDriveKeyRecord',
      'createFolderKey',
      'wrapNodeKey',
      'unwrapNodeKey',
      'rewrapNodeKey',
      'wrapFileKeyForParent',
      'sealMetadata',
      'openMetadata',
      'sanitizeDisplayName',
      'zipEntryPath',
      'signNodeRecord',
      'verifyNodeRecord',
      'parseNodeRecord',
      'nodeRecordMessage',
      'signFolderGrant',
      'verifyFolderGrant',
      'parseFolderGrant',
      'folderGrantMessage',
      'wrapFolderKeyForRecipient',
      'unwrapFolderKeyFromGrant',
      'openNodesMetadata',
      'isNodeId',
      'isParentNodeId',
    ] as const;
    for (const name of functions) expect(typeof api[name], name).toBe('function');
    expect([api.DRIVE_NODE_ID, api.WRAPPED_NODE_KEY_LENGTH, api.MAX_NODE_NAME_LENGTH]).toEqual([
      'drive',
      60,
      1024,
    ]);
    expect([api.MAX_CONTENT_TYPE_LENGTH, api.MAX_DISPLAY_NAME_BYTES, api.OPEN_NODES_CONCURRENCY]).toEqual([
      255, 255, 64,
    ]);
    expect(api.SIGNED_LABELS).toMatchObject({
      node: 'coffer-v2/node',
      folderGrant: 'coffer-v2/folder-grant',
    });
  });

  it('gives the new errors their codes', () => {
    const errors = [new api.NodeKeyUnwrapError('x'), new api.MetadataInvalidError('x')];
    expect(errors.map((e) => [e.name, e.code])).toEqual([
      ['NodeKeyUnwrapError', 'NODE_KEY_UNWRAP_FAILED'],
      ['MetadataInvalidError', 'METADATA_INVALID'],
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(api.CofferCryptoError);
  });
});
