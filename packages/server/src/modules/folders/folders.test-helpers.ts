/**
 * Helpers for the integration tests of the encrypted drive (issue 31). The server checks only shapes and
 * places, so random bytes of plausible sizes stand in for wraps and sealed metadata, and a JSON object for
 * the signed node record.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { FileNode, Folder } from '@coffer/contracts';
import { expect } from 'vitest';
import type { TestApp } from '../../test/app-harness.js';

const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/** A node at `parentNodeId` (null: the top) with a fresh id, a 60-byte wrap and 100 bytes of metadata. */
export function nodeAt(parentNodeId: string | null, nodeId: string = randomUUID()): FileNode {
  return {
    nodeId,
    parentNodeId,
    wrappedKey: b64(60),
    encryptedMetadata: b64(100),
    nodeRecord: JSON.stringify({ v: 1, type: 'node', nodeId, signatureB64: b64(64) }),
  };
}

/** Creates a folder through the API (must succeed). */
export async function createFolder(t: TestApp, user: string, parentNodeId: string | null): Promise<Folder> {
  const res = await t.as(user, { method: 'POST', url: '/api/users/folders', payload: nodeAt(parentNodeId) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Folder>();
}

/** The node of a folder moved or renamed to `parentNodeId` (its wrap, metadata and record renewed). */
export function placeAt(parentNodeId: string | null): Omit<FileNode, 'nodeId'> {
  const node: Partial<FileNode> = nodeAt(parentNodeId);
  delete node.nodeId;
  return node as Omit<FileNode, 'nodeId'>;
}
