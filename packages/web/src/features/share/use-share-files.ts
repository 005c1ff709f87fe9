import { useCallback, useState } from 'react';
import { sharedSuccessText, shareMessages } from '@coffer/contracts';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { FileMetadata, ShareFileRequest } from '@coffer/contracts';
import { useCurrentUser } from '../../session/current-user';
import { useAppSession, useEncryptionState } from '../../session/session-context';
import { keysApi } from '../../lib/api/endpoints';
import { signedShareRequest } from '../../lib/trust/signed-files';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { existingSharesOf, type ExistingShares, type SharePlan } from '../../lib/files/share-plan';
import {
  rewrapForRecipient,
  runSharePlan,
  SharePreconditionError,
  type ShareRunResult,
} from '../../lib/files/share-run';
import { snackbar } from '../../lib/snackbar';
import { track } from '../../lib/analytics';

export interface ExistingSharesState {
  readonly existing: ExistingShares;
  /** Some share lists are still loading: availability may not be final yet. */
  readonly pending: boolean;
}

/** The share lists of these files (the same cache entries as the cards' "Shared with"). */
export function useExistingShares(fileIds: readonly string[], enabled: boolean): ExistingSharesState {
  const api = useApiClient();
  return useQueries({
    queries: fileIds.map((fileId) => ({
      queryKey: fileQueryKeys.shares(fileId),
      queryFn: () => filesApi.shares(api, fileId),
      retry: retryUnlessClientError,
      enabled,
    })),
    combine: (results) => ({
      existing: existingSharesOf(
        results.flatMap((result, index) => {
          const fileId = fileIds[index];
          return result.data === undefined || fileId === undefined ? [] : [[fileId, result.data] as const];
        }),
      ),
      pending: enabled && results.some((result) => result.isPending),
    }),
  });
}

export interface ShareProgress {
  readonly done: number;
  readonly total: number;
  /** 'Sharing <file> with <contact>…' */
  readonly text: string;
}

export interface ShareRunner {
  /** Runs a plan with the spec's snackbars; resolves with the outcome (null when it could not start). */
  run: (plan: SharePlan) => Promise<ShareRunResult | null>;
  readonly progress: ShareProgress | null;
}

/**
 * Shares files for real: for each new (file, contact) pair, the owner's file key from the file's
 * metadata is re-wrapped to the contact's public key and posted with the contact's key id, one
 * contact at a time with a 1-second pause (spec sections 4, 5 and 8); a contact's several files go
 * in one request, so they get one mail.
 */
export function useShareRunner(): ShareRunner {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const encryption = useEncryptionState();
  const privateKey = encryption.status === 'unlocked' ? encryption.keys.privateKey : null;
  const signingPrivateKey = encryption.status === 'unlocked' ? encryption.keys.signingPrivateKey : undefined;
  const { trust } = useAppSession();
  const ownerEmail = useCurrentUser()?.email ?? null;
  const [progress, setProgress] = useState<ShareProgress | null>(null);

  const run = useCallback(
    async (plan: SharePlan): Promise<ShareRunResult | null> => {
      if (plan.pairCount === 0) {
        snackbar.warning(shareMessages.nothingNew);
        return null;
      }
      if (privateKey === null) {
        snackbar.danger(shareMessages.encryptionNotInitialized);
        return null;
      }
      let done = 0;
      setProgress({ done, total: plan.pairCount, text: '' });
      // One metadata read per file: the owner's key copy and the manifest the grant names.
      const metadata = new Map<string, Promise<FileMetadata>>();
      const metadataOf = (fileId: string): Promise<FileMetadata> => {
        let entry = metadata.get(fileId);
        if (entry === undefined) {
          entry = filesApi.get(api, fileId);
          metadata.set(fileId, entry);
        }
        return entry;
      };
      try {
        const result = await runSharePlan(
          plan,
          {
            privateKey,
            ownerFileKey: async (fileId) => (await metadataOf(fileId)).encryptionInfo?.encryptedFileKey,
            rewrap: rewrapForRecipient,
            // The key wrapped to is the key checked against the pins, fetched now (issue 13).
            resolveRecipient: async (contact) => {
              const served = await keysApi.publicKeyOf(api, contact.email);
              const check = await trust.checkContact(contact.email, served);
              if (!check.canShare) {
                throw new SharePreconditionError(check.reason ?? `Cannot share with ${contact.name}.`);
              }
              return served;
            },
            ...(signingPrivateKey === undefined || ownerEmail === null
              ? {}
              : {
                  sign: async (fileId: string, body: ShareFileRequest, recipientPublicKeyB64: string) =>
                    signedShareRequest(
                      {
                        fileId,
                        file: await metadataOf(fileId),
                        recipientEmail: body.email,
                        recipientKeyId: body.keyVersion,
                        recipientPublicKeyB64,
                        encryptedFileKeyB64: body.encryptedFileKey,
                      },
                      ownerEmail,
                      signingPrivateKey,
                    ),
                }),
            post: (fileId, body) => filesApi.share(api, fileId, body),
            postBatch: (email, files) => filesApi.shareMany(api, { email, files: [...files] }),
          },
          (event) => {
            switch (event.type) {
              case 'sharing':
                setProgress({
                  done,
                  total: plan.pairCount,
                  text: `Sharing ${event.file.title} with ${event.contact.name}…`,
                });
                break;
              case 'shared':
                done += 1;
                snackbar.success(sharedSuccessText(event.file.title, event.contact.name));
                track('share', { fileCount: 1, contactCount: 1 });
                break;
              case 'failed':
                done += 1;
                snackbar.danger(event.message);
                break;
            }
          },
        );
        return result;
      } finally {
        setProgress(null);
        const fileIds = new Set(plan.steps.flatMap((step) => step.files.map((file) => file.id)));
        await Promise.all([
          ...[...fileIds].map((fileId) =>
            queryClient.invalidateQueries({ queryKey: fileQueryKeys.shares(fileId) }),
          ),
          queryClient.invalidateQueries({ queryKey: statsQueryKey }),
        ]);
      }
    },
    [api, privateKey, signingPrivateKey, ownerEmail, trust, queryClient],
  );

  return { run, progress };
}
