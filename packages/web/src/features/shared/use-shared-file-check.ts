import type { SharedFileMetadata } from '@coffer/contracts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { keysApi } from '../../lib/api/endpoints';
import { filesApi } from '../../lib/api/files';
import type { KeyTrust } from '../../lib/trust/key-trust';
import { sharedNames } from '../../lib/drive';
import { checkSharedFile, signatureBadge, type Me, type SignatureBadge } from '../../lib/trust/signed-files';
import { useRecipient, type Recipient } from './use-recipient';

/**
 * A shared file's check: how to show it, and the metadata answer it judged. A download must use
 * exactly that answer (the download target's `checked`), never fetch it again: a server could
 * otherwise pass the check with one answer and serve the download another (issue 13).
 */
export interface SharedFileCheck extends SignatureBadge {
  readonly metadata: SharedFileMetadata;
}

/** Query key of a shared file's signature check (per file and owner). */
export const sharedFileCheckKey = (fileId: string, owner: string) =>
  ['shared-file-check', fileId, owner.toLowerCase()] as const;

/**
 * Checks a file shared with me before it is offered (issue 13): the owner's key against my pins
 * (pinned on first sight), then the owner's share grant and manifest against what the server
 * serves, with my own email, key id and public key from my session. A share the owner's pinned
 * signing key did not sign, or that differs from what they signed, cannot be opened.
 */
export function useSharedFileCheck(fileId: string, owner: string): UseQueryResult<SharedFileCheck> {
  const recipient = useRecipient();
  return useQuery({ ...sharedFileCheckQuery(recipient, fileId, owner), enabled: recipient.ready });
}

/**
 * The check's query (key, function, freshness), for the card's `useQuery` and for a selection's
 * ZIP (`queryClient.query`): both read and fill the same cached answer.
 */
export function sharedFileCheckQuery(recipient: Recipient, fileId: string, owner: string) {
  const { api, trust, email, keys } = recipient;
  return {
    queryKey: sharedFileCheckKey(fileId, owner),
    staleTime: 60_000,
    retry: false,
    queryFn: async (): Promise<SharedFileCheck> => {
      if (keys === null || email === null) throw new Error('Encryption is not unlocked');
      const [shared, served] = await Promise.all([
        filesApi.getShared(api, fileId),
        keysApi.publicKeyOf(api, owner),
      ]);
      const me: Me = { email, keyId: keys.keyVersion, publicKeyB64: keys.publicKeyB64 };
      const badge = await judge(fileId, owner, shared, await trust.checkContact(owner, served), me);
      if (badge.canOpen) {
        // Its sealed name (issue 31), opened with my copy of its key, for the card and the list's search.
        await sharedNames
          .open(fileId, shared.file, shared.encryptedFileKey, keys.privateKey)
          .catch((error: unknown) => {
            console.warn('The name of a shared file does not open', error);
          });
      }
      return { ...badge, metadata: shared };
    },
  } as const;
}

/** The words for one received share from `owner` (the list's sender), given where their key stands. */
async function judge(
  fileId: string,
  owner: string,
  shared: SharedFileMetadata,
  ownerKey: KeyTrust,
  me: Me,
): Promise<SignatureBadge> {
  if (ownerKey.state === 'key-changed' || ownerKey.state === 'invalid-binding') {
    return {
      tone: 'danger',
      text: `The key of ${owner} has changed: this file cannot be verified until you accept their new safety number on the Contacts page`,
      canOpen: false,
      askFirst: false,
    };
  }
  const signed = shared.shareGrant !== undefined || shared.file.manifest !== undefined;
  if (ownerKey.signingPublicKeyB64 === undefined) {
    // The owner has no signing key, so nothing they sent can carry a genuine signature.
    return signed
      ? signatureBadge({ status: 'invalid-signature', reason: 'the sender has no signing key' }, owner)
      : signatureBadge({ status: 'unsigned' }, owner);
  }
  const check = await checkSharedFile(fileId, shared, me, ownerKey.signingPublicKeyB64);
  return signatureBadge(check, owner);
}
