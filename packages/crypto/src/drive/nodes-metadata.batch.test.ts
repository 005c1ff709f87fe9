import { describe, expect, it } from 'vitest';
import { generateFileKey } from '../file-key.wrap.js';
import { createFolderKey, wrapNodeKey } from './node-key.wrap.js';
import { sealMetadata } from './node-metadata.seal.js';
import { openNodesMetadata, type ListedNode } from './nodes-metadata.batch.js';

const FOLDER = '0000000a-0000-4000-8000-000000000000';
const id = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

async function folderWithFiles(count: number): Promise<{ folderKey: CryptoKey; nodes: ListedNode[] }> {
  const parent = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'wrapKey',
    'unwrapKey',
  ]);
  const { folderKey } = await createFolderKey(parent, { parentNodeId: 'drive', nodeId: FOLDER });
  const nodes = await Promise.all(
    Array.from({ length: count }, async (_, i): Promise<ListedNode> => {
      const key = await generateFileKey();
      const nodeId = id(i + 1);
      return {
        nodeId,
        parentNodeId: FOLDER,
        kind: 'file',
        wrappedKeyB64: await wrapNodeKey(key, folderKey, { parentNodeId: FOLDER, nodeId }),
        encryptedMetadataB64: await sealMetadata(key, nodeId, {
          name: `file ${i}.txt`,
          contentType: 'text/plain',
        }),
      };
    }),
  );
  return { folderKey, nodes };
}

describe('openNodesMetadata', () => {
  it('opens every child in order, with its key', async () => {
    const { folderKey, nodes } = await folderWithFiles(200);
    const opened = await openNodesMetadata(folderKey, nodes, 7);
    expect(opened.map((node) => (node.ok ? node.name : node.reason))).toEqual(
      nodes.map((_, i) => `file ${i}.txt`),
    );
    expect(
      opened.every((node) => node.ok && node.contentType === 'text/plain' && !node.nodeKey.extractable),
    ).toBe(true);
  });

  it('reports each bad node without stopping the others', async () => {
    const { folderKey, nodes } = await folderWithFiles(4);
    const [a, b, c, d] = nodes as [ListedNode, ListedNode, ListedNode, ListedNode];
    const served: ListedNode[] = [
      a,
      { ...b, encryptedMetadataB64: c.encryptedMetadataB64 }, // metadata swapped in
      { ...c, parentNodeId: id(99) }, // claimed under another parent
      { ...d, nodeId: 'drive' }, // not a node id
    ];
    const opened = await openNodesMetadata(folderKey, served);
    expect(opened.map((node) => (node.ok ? 'ok' : node.code))).toEqual([
      'ok',
      'METADATA_INVALID',
      'NODE_KEY_UNWRAP_FAILED',
      'INVALID_ARGUMENT',
    ]);
    expect(opened.map((node) => node.nodeId)).toEqual(served.map((node) => node.nodeId));
  });

  it('keeps at most `concurrency` nodes in flight', async () => {
    const { folderKey, nodes } = await folderWithFiles(50);
    let inFlight = 0;
    let peak = 0;
    const subtle = crypto.subtle;
    const original = subtle.unwrapKey.bind(subtle);
    const spy = async (...args: Parameters<SubtleCrypto['unwrapKey']>): Promise<CryptoKey> => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await original(...args);
      } finally {
        inFlight--;
      }
    };
    Object.defineProperty(subtle, 'unwrapKey', { value: spy, configurable: true });
    try {
      await openNodesMetadata(folderKey, nodes, 5);
    } finally {
      // The spy is an own property over SubtleCrypto.prototype's method: removing it restores that.
      delete (subtle as { unwrapKey?: unknown }).unwrapKey;
    }
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(5);
  });

  it('answers an empty list and refuses a concurrency below one', async () => {
    const { folderKey } = await folderWithFiles(0);
    expect(await openNodesMetadata(folderKey, [])).toEqual([]);
    await expect(openNodesMetadata(folderKey, [], 0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
