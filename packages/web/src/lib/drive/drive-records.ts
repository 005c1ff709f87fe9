import { verifyNodeRecord, type SignatureCheck } from '@coffer/crypto';
import type { DriveNode, RecordState } from './drive-nodes';
import { measureSince, timingStart } from './drive-timing';
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
      states.set(recordId(node), await checkOne(node, ownerEmail, signingPublicKeyB64));
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECORD_CONCURRENCY, nodes.length) }, worker));
  return states;
}

/** The key of a node's record state: a file's id, a folder's node id. */
const recordId = (node: DriveNode): string => (node.kind === 'file' ? node.fileId : node.nodeId);

/** Checks the records of a list that grows (My Files, a page at a time), each node once. */
export interface RecordChecker {
  /**
   * The states of every node of `nodes`: those already checked (or being checked) by an earlier call
   * are not checked again; the rest are. Records the User Timing measure `coffer:drive:records`
   * (its `detail.count`: how many nodes the answer holds).
   */
  check(nodes: readonly DriveNode[]): Promise<Map<string, RecordState>>;
}

/**
 * A {@link RecordChecker} for my signing key. A node is known by the server's answer it came from
 * (`item`, never changed in place): a refetch brings new answers, so their records are checked
 * again; the same answer is never checked twice, however often the list grows.
 */
export function createRecordChecker(
  ownerEmail: string,
  signingPublicKeyB64: string | undefined,
): RecordChecker {
  const known = new WeakMap<object, Promise<RecordState>>();
  return {
    async check(nodes) {
      const started = timingStart();
      const fresh = nodes.filter((node) => !known.has(node.item));
      if (fresh.length > 0) {
        const run = checkNodeRecords(fresh, ownerEmail, signingPublicKeyB64);
        run.catch(() => {
          for (const node of fresh) known.delete(node.item);
        });
        for (const node of fresh) {
          known.set(
            node.item,
            run.then((states) => states.get(recordId(node)) ?? 'tampered'),
          );
        }
      }
      // Awaited together, listed in the list's order (not in the order the checks happened to end).
      const settled = await Promise.all(
        nodes.map((node) => {
          const state = known.get(node.item);
          if (state === undefined) throw new Error('a node record was not checked');
          return state;
        }),
      );
      const states = new Map<string, RecordState>();
      nodes.forEach((node, index) => {
        const state = settled[index];
        if (state !== undefined) states.set(recordId(node), state);
      });
      measureSince('records', started, { count: nodes.length });
      return states;
    },
  };
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
