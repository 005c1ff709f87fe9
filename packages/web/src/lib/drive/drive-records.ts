import { verifyNodeRecord, type SignatureCheck } from '@coffer/crypto';
import type { DriveNode, RecordState } from './drive-nodes';
import { cryptoParentId } from './node-place';

/** Records verified at once: Ed25519 and SHA-256 run in WebCrypto's pool, this bounds what waits. */
const RECORD_CONCURRENCY = 32;

/**
 * Verifies the owner's signed node record of every node with my signing key (issue 31, point 6):
 * a record missing, not mine, or naming another parent, key or metadata than served is `tampered`
 * (the server moved, swapped or injected it). Files with a clear name have no record (`none`).
 *
 * The list answer carries no manifest, so a file record's manifest hash is checked where the
 * manifest is served (the download's own-file check), not here: a mismatch in that field alone
 * counts as valid in the list.
 */
export async function checkNodeRecords(
  nodes: readonly DriveNode[],
  ownerEmail: string,
  signingPublicKeyB64: string | undefined,
): Promise<Map<string, RecordState>> {
  const states = new Map<string, RecordState>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < nodes.length) {
      const node = nodes[next++];
      if (node === undefined) continue;
      const id = node.kind === 'file' ? node.fileId : node.nodeId;
      states.set(id, await checkOne(node, ownerEmail, signingPublicKeyB64));
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECORD_CONCURRENCY, nodes.length) }, worker));
  return states;
}

async function checkOne(
  node: DriveNode,
  ownerEmail: string,
  signingPublicKeyB64: string | undefined,
): Promise<RecordState> {
  const item = node.item;
  if (node.kind === 'file' && node.nodeId === null) return 'none';
  if (signingPublicKeyB64 === undefined) return 'tampered';
  const nodeId = node.nodeId;
  const wrappedKey = item.wrappedKey;
  const encryptedMetadata = item.encryptedMetadata;
  if (nodeId === null || wrappedKey === undefined || encryptedMetadata === undefined) return 'tampered';
  const check = await verifyNodeRecord(
    item.nodeRecord,
    {
      ownerEmail,
      nodeId,
      parentNodeId: cryptoParentId(item.parentNodeId),
      kind: node.kind,
      wrappedKeyB64: wrappedKey,
      encryptedMetadataB64: encryptedMetadata,
    },
    signingPublicKeyB64,
  );
  return isValid(check, node.kind) ? 'valid' : 'tampered';
}

function isValid(check: SignatureCheck, kind: DriveNode['kind']): boolean {
  if (check.status === 'valid') return true;
  return (
    kind === 'file' &&
    check.status === 'mismatch' &&
    check.fields.every((field) => field === 'manifestSha256Hex')
  );
}
