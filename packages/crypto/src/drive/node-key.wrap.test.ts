import { beforeAll, describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { decryptChunk, encryptChunk } from '../chunk.cipher.js';
import { FileKeyUnwrapError, NodeKeyUnwrapError } from '../crypto.errors.js';
import { generateFileKey, wrapFileKey } from '../file-key.wrap.js';
import { importPublicKeyB64 } from '../key-pair.rsa.js';
import { makeIdentity, type TestIdentity } from '../testing/identities.js';
import { createDriveKey } from './drive-key.wrap.js';
import {
  createFolderKey,
  rewrapNodeKey,
  unwrapNodeKey,
  wrapFileKeyForParent,
  wrapNodeKey,
  WRAPPED_NODE_KEY_LENGTH,
} from './node-key.wrap.js';

const FOLDER_A = '0000000a-0000-4000-8000-000000000000';
const FOLDER_B = '0000000b-0000-4000-8000-000000000000';
const FILE_1 = '00000001-0000-4000-8000-000000000000';
const FILE_2 = '00000002-0000-4000-8000-000000000000';

let alice: TestIdentity;
let driveKey: CryptoKey;
let otherDriveKey: CryptoKey;
let folderA: CryptoKey;
let folderB: CryptoKey;

beforeAll(async () => {
  alice = await makeIdentity('alice@example.com');
  const alicePublic = await importPublicKeyB64(alice.publicKeyB64);
  ({ driveKey } = await createDriveKey([alicePublic]));
  ({ driveKey: otherDriveKey } = await createDriveKey([alicePublic]));
  ({ folderKey: folderA } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: FOLDER_A }));
  ({ folderKey: folderB } = await createFolderKey(driveKey, { parentNodeId: 'drive', nodeId: FOLDER_B }));
});

const inA = (nodeId: string): { parentNodeId: string; nodeId: string } => ({
  parentNodeId: FOLDER_A,
  nodeId,
});

/** A file key usable for content: encrypt a chunk with one, decrypt with the other. */
async function sameContentKey(a: CryptoKey, b: CryptoKey): Promise<boolean> {
  const plain = crypto.getRandomValues(new Uint8Array(33));
  const sealed = await encryptChunk(a, 0, true, plain);
  return bytesToBase64(await decryptChunk(b, 0, true, sealed)) === bytesToBase64(plain);
}

describe('node keys', () => {
  it('a file key wrapped under its folder opens as a non-extractable content key', async () => {
    const fileKey = await generateFileKey();
    const wrapped = await wrapNodeKey(fileKey, folderA, inA(FILE_1));
    expect(base64ToBytes(wrapped)).toHaveLength(WRAPPED_NODE_KEY_LENGTH);
    const opened = await unwrapNodeKey(wrapped, folderA, inA(FILE_1), 'file');
    expect(opened.extractable).toBe(false);
    expect(opened.algorithm).toEqual({ name: 'AES-GCM', length: 256 });
    expect(opened.usages.sort()).toEqual(['decrypt', 'encrypt']);
    expect(await sameContentKey(fileKey, opened)).toBe(true);
  });

  it('a folder key opens with wrap usages and wraps its own children', async () => {
    const { folderKey: sub, wrappedKeyB64 } = await createFolderKey(folderA, inA(FOLDER_B));
    expect(sub.extractable).toBe(false);
    const reopened = await unwrapNodeKey(wrappedKeyB64, folderA, inA(FOLDER_B), 'folder');
    expect(reopened.usages.sort()).toEqual(['decrypt', 'encrypt', 'unwrapKey', 'wrapKey']);
    const fileKey = await generateFileKey();
    const child = { parentNodeId: FOLDER_B, nodeId: FILE_1 };
    const wrapped = await wrapNodeKey(fileKey, sub, child);
    expect(await sameContentKey(fileKey, await unwrapNodeKey(wrapped, reopened, child, 'file'))).toBe(true);
  });

  it('a wrap moved to another parent, another node id or another drive does not open', async () => {
    const wrapped = await wrapNodeKey(await generateFileKey(), folderA, inA(FILE_1));
    // Each attempt starts only when its expectation awaits it: started together, a later rejection
    // would settle before anything handles it (an unhandled rejection that fails the run).
    const attempts = [
      // The server moves the record under folder B: B's key cannot open it, nor can A's at B's place.
      () => unwrapNodeKey(wrapped, folderB, { parentNodeId: FOLDER_B, nodeId: FILE_1 }, 'file'),
      () => unwrapNodeKey(wrapped, folderA, { parentNodeId: FOLDER_B, nodeId: FILE_1 }, 'file'),
      // The server serves it as another file (swapping two files' keys).
      () => unwrapNodeKey(wrapped, folderA, inA(FILE_2), 'file'),
      // Or at the top of the drive.
      () => unwrapNodeKey(wrapped, driveKey, { parentNodeId: 'drive', nodeId: FILE_1 }, 'file'),
      // Another user's drive key.
      () => unwrapNodeKey(wrapped, otherDriveKey, inA(FILE_1), 'file'),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toBeInstanceOf(NodeKeyUnwrapError);
  });

  it('altered, truncated and non-base64 wraps fail with NODE_KEY_UNWRAP_FAILED', async () => {
    const wrapped = base64ToBytes(await wrapNodeKey(await generateFileKey(), folderA, inA(FILE_1)));
    const altered = new Uint8Array(wrapped);
    altered[20] = (altered[20] ?? 0) ^ 1;
    for (const bad of [bytesToBase64(altered), bytesToBase64(wrapped.subarray(0, 59)), 'a b', '']) {
      await expect(unwrapNodeKey(bad, folderA, inA(FILE_1), 'file')).rejects.toMatchObject({
        code: 'NODE_KEY_UNWRAP_FAILED',
      });
    }
  });

  it('a move re-wraps the same key at the new place, and the old place no longer names it', async () => {
    const fileKey = await generateFileKey();
    const wrapped = await wrapNodeKey(fileKey, folderA, inA(FILE_1));
    const to = { parentNodeId: FOLDER_B, nodeId: FILE_1 };
    const moved = await rewrapNodeKey(
      wrapped,
      'file',
      { parentKey: folderA, place: inA(FILE_1) },
      { parentKey: folderB, place: to },
    );
    expect(await sameContentKey(fileKey, await unwrapNodeKey(moved, folderB, to, 'file'))).toBe(true);
    await expect(unwrapNodeKey(moved, folderA, inA(FILE_1), 'file')).rejects.toBeInstanceOf(
      NodeKeyUnwrapError,
    );
  });

  it('migration: the RSA owner copy becomes a wrap under the parent', async () => {
    const fileKey = await generateFileKey();
    const ownerCopy = await wrapFileKey(fileKey, await importPublicKeyB64(alice.publicKeyB64));
    const top = { parentNodeId: 'drive', nodeId: FILE_2 };
    const wrapped = await wrapFileKeyForParent(ownerCopy, alice.privateKey, driveKey, top);
    expect(await sameContentKey(fileKey, await unwrapNodeKey(wrapped, driveKey, top, 'file'))).toBe(true);
    const other = await makeIdentity('mallory@example.com');
    await expect(wrapFileKeyForParent(ownerCopy, other.privateKey, driveKey, top)).rejects.toBeInstanceOf(
      FileKeyUnwrapError,
    );
  });

  it('refuses ids that would make the AAD ambiguous, and keys already in the tree', async () => {
    const fileKey = await generateFileKey();
    for (const place of [
      { parentNodeId: 'drive', nodeId: 'drive' },
      { parentNodeId: `${FOLDER_A}/x`, nodeId: FILE_1 },
      { parentNodeId: FOLDER_B, nodeId: FOLDER_A.toUpperCase() },
      { parentNodeId: FILE_1, nodeId: FILE_1 },
    ]) {
      await expect(wrapNodeKey(fileKey, folderA, place)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    const opened = await unwrapNodeKey(
      await wrapNodeKey(fileKey, folderA, inA(FILE_1)),
      folderA,
      inA(FILE_1),
      'file',
    );
    await expect(wrapNodeKey(opened, folderB, inA(FILE_1))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
