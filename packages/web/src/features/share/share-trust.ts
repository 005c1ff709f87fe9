import type { UseQueryResult } from '@tanstack/react-query';
import type { KeyTrust } from '../../lib/trust/key-trust';

/**
 * Why a verified contact is not offered in the share picker (issue 13): its key is still being
 * checked against the pins, or the check refuses it. `note` is the picker's short word; `reason`
 * the full sentence.
 */
export type TrustHold =
  | { readonly kind: 'checking'; readonly note: string }
  | { readonly kind: 'refused'; readonly note: string; readonly reason: string };

const CHECKING: TrustHold = { kind: 'checking', note: 'Checking key…' };

/** The hold of one contact's key check, or null when files may be shared with it. */
export function trustHold(check: UseQueryResult<KeyTrust> | undefined): TrustHold | null {
  if (check === undefined || check.isPending) return CHECKING;
  if (check.isError) {
    return {
      kind: 'refused',
      note: 'Key not checked',
      reason: 'This contact’s key could not be checked. Sharing is paused until it can be.',
    };
  }
  const trust = check.data;
  if (trust.canShare) return null;
  const reason = trust.reason ?? 'Coffer cannot share with this contact now.';
  switch (trust.state) {
    case 'key-changed':
      return { kind: 'refused', note: 'Key changed: accept it on the Contacts page first', reason };
    case 'invalid-binding':
      return { kind: 'refused', note: 'Keys do not match', reason };
    case 'no-signing-key':
      return { kind: 'refused', note: 'Sharing paused', reason };
    case 'new':
    case 'tofu':
    case 'verified':
    case 'key-changed-accepted':
      return { kind: 'refused', note: 'Cannot share now', reason };
  }
}
