import type { Contact } from '@coffer/contracts';
import { ErrorCode } from '@coffer/contracts';
import { ApiRequestError } from '../api/http';
import type { ServedKey } from '../trust/key-trust';

/** The served keys of a contact with a public key, as the trust check takes them. */
export function servedKeyOf(view: ContactView): ServedKey | null {
  if (view.publicKey === null || view.keyId === null) return null;
  return {
    publicKey: view.publicKey,
    keyId: view.keyId,
    ...(view.signingPublicKey === undefined ? {} : { signingPublicKey: view.signingPublicKey }),
    ...(view.keyBinding === undefined ? {} : { keyBinding: view.keyBinding }),
  };
}

/**
 * Where a contact stands (spec section 4): `checking` while its public key is looked up,
 * `verified` when it has one (files can be shared with it), `unverified` otherwise.
 */
export type ContactStatus = 'checking' | 'verified' | 'unverified';

/** A contact as the Contacts screen shows it: the server's contact plus the key lookup (spec section 3). */
export interface ContactView extends Contact {
  status: ContactStatus;
  /** base64 SPKI; present only when verified. */
  publicKey: string | null;
  keyId: string | null;
  /** The signing key and key binding served with the public key (issue 13), when it has them. */
  signingPublicKey?: string;
  keyBinding?: string;
}

/** The outcome of one `GET /users/keys/public/{email}` as the contact list sees it. */
export type KeyLookup =
  | { state: 'pending' }
  | { state: 'found'; publicKey: string; keyId: string; signingPublicKey?: string; keyBinding?: string }
  | { state: 'missing' }
  | { state: 'failed' };

/** True for the answer that means "this person has no key yet" (404 KEYS_NOT_FOUND). */
export function isKeyNotFound(error: unknown): boolean {
  return (
    error instanceof ApiRequestError && (error.code === ErrorCode.KEYS_NOT_FOUND || error.status === 404)
  );
}

/** Reads a TanStack query's state into a {@link KeyLookup}; no query yet counts as pending. */
export function keyLookupOf(
  query:
    | {
        data?:
          { publicKey: string; keyId: string; signingPublicKey?: string; keyBinding?: string } | undefined;
        error: unknown;
      }
    | undefined,
): KeyLookup {
  if (query === undefined) return { state: 'pending' };
  if (query.data !== undefined) {
    const { publicKey, keyId, signingPublicKey, keyBinding } = query.data;
    return {
      state: 'found',
      publicKey,
      keyId,
      ...(signingPublicKey === undefined ? {} : { signingPublicKey }),
      ...(keyBinding === undefined ? {} : { keyBinding }),
    };
  }
  if (query.error !== null && query.error !== undefined) {
    return isKeyNotFound(query.error) ? { state: 'missing' } : { state: 'failed' };
  }
  return { state: 'pending' };
}

/**
 * Combines a contact with its key lookup.
 *
 * - A found key makes the contact verified.
 * - No key (404) makes it unverified; `invited` is the server's flag, so 'Invited' survives a reload.
 * - A failed lookup (network or server error) marks the contact unverified and not invited, as the
 *   spec says, so the user can still send an invitation.
 *
 * `invitedNow` is true when the user invited this contact on this screen: it then shows 'Invited'
 * whatever the lookup said.
 */
export function toContactView(contact: Contact, lookup: KeyLookup, invitedNow = false): ContactView {
  switch (lookup.state) {
    case 'pending':
      return { ...contact, status: 'checking', publicKey: null, keyId: null };
    case 'found':
      return {
        ...contact,
        status: 'verified',
        publicKey: lookup.publicKey,
        keyId: lookup.keyId,
        ...(lookup.signingPublicKey === undefined ? {} : { signingPublicKey: lookup.signingPublicKey }),
        ...(lookup.keyBinding === undefined ? {} : { keyBinding: lookup.keyBinding }),
      };
    case 'missing':
      return {
        ...contact,
        status: 'unverified',
        invited: contact.invited || invitedNow,
        publicKey: null,
        keyId: null,
      };
    case 'failed':
      return { ...contact, status: 'unverified', invited: invitedNow, publicKey: null, keyId: null };
  }
}

/** The one action a contact card offers, by status. */
export type ContactAction = 'none' | 'share' | 'invite' | 'invited';

export function contactActionOf(view: Pick<ContactView, 'status' | 'invited'>): ContactAction {
  switch (view.status) {
    case 'checking':
      return 'none';
    case 'verified':
      return 'share';
    case 'unverified':
      return view.invited ? 'invited' : 'invite';
  }
}
