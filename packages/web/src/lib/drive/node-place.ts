import { DRIVE_NODE_ID } from '@coffer/crypto';

/** The API says `null` for the top of the drive; AADs and node records say `drive`. */
export function cryptoParentId(parentNodeId: string | null | undefined): string {
  return parentNodeId ?? DRIVE_NODE_ID;
}

/** A new node id: a lower-case UUID, chosen before anything is signed or uploaded. */
export function newNodeId(): string {
  return crypto.randomUUID().toLowerCase();
}
