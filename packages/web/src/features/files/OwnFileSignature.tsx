import type { ReactElement } from 'react';
import { Badge, Text } from '@mantine/core';
import { IconShieldQuestion } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSnapshot, useEncryptionState } from '../../session/session-context';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { checkOwnFile, signatureBadge } from '../../lib/trust/signed-files';
import type { FileView } from '../../lib/files/file-views';
import type { DriveFileView } from './use-my-drive';

/**
 * Whether a card checks the file's manifest itself (a GET /users/files/{id} per card). A file with a
 * node does not: its signed node record is checked with the list (DriveNodeWarning), and the
 * manifest it names is checked before every download. A file with a clear name does (it has no
 * record), and so does a placed file the server says still has a version 1 manifest (until it is
 * signed again at unlock, the check says what is wrong).
 */
export function cardChecksManifest(file: FileView): boolean {
  const drive = (file as Partial<DriveFileView>).drive;
  if (drive === undefined) return true;
  return drive.nodeId === null || drive.item.clearManifest === true;
}

/**
 * My own file's manifest checked against my signing key (issue 13). Signed files need no label;
 * files uploaded before signatures say "Unsigned" (they keep working), and a manifest that does
 * not match what the server serves says so.
 */
export function OwnFileSignature({ file }: { file: FileView }): ReactElement | null {
  const fileId = file.id;
  const needed = cardChecksManifest(file);
  const api = useApiClient();
  const encryption = useEncryptionState();
  // The same source as the email the encryption session bound the signing key to.
  const email = useAuthSnapshot().user?.email ?? null;
  const unlocked = encryption.status === 'unlocked';
  // Undefined while unlocked: adding the signing key failed; files then say "Unsigned", honestly.
  const signingKey = unlocked ? encryption.keys.signingPublicKeyB64 : undefined;
  const check = useQuery({
    queryKey: ['own-file-check', fileId, signingKey ?? null],
    enabled: needed && unlocked && email !== null,
    staleTime: 5 * 60_000,
    retry: false,
    queryFn: async () =>
      signatureBadge(await checkOwnFile(await filesApi.get(api, fileId), email ?? '', signingKey), 'you'),
  });
  if (!needed || check.data === undefined || check.data.tone === 'verified') return null;
  if (check.data.tone === 'unsigned') {
    return (
      <Badge
        variant="light"
        color="gray"
        tt="none"
        leftSection={<IconShieldQuestion size={12} aria-hidden />}
      >
        Unsigned
      </Badge>
    );
  }
  return (
    <Text size="sm" c="red" role="alert">
      {check.data.text}
    </Text>
  );
}
