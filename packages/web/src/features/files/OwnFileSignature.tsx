import type { ReactElement } from 'react';
import { Badge, Text } from '@mantine/core';
import { IconShieldQuestion } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSnapshot, useEncryptionState } from '../../session/session-context';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { checkOwnFile, signatureBadge } from '../../lib/trust/signed-files';

/**
 * My own file's manifest checked against my signing key (issue 13). Signed files need no label;
 * files uploaded before signatures say "Unsigned" (they keep working), and a manifest that does
 * not match what the server serves says so.
 */
export function OwnFileSignature({ fileId }: { fileId: string }): ReactElement | null {
  const api = useApiClient();
  const encryption = useEncryptionState();
  // The same source as the email the encryption session bound the signing key to.
  const email = useAuthSnapshot().user?.email ?? null;
  const unlocked = encryption.status === 'unlocked';
  // Undefined while unlocked: adding the signing key failed; files then say "Unsigned", honestly.
  const signingKey = unlocked ? encryption.keys.signingPublicKeyB64 : undefined;
  const check = useQuery({
    queryKey: ['own-file-check', fileId, signingKey ?? null],
    enabled: unlocked && email !== null,
    staleTime: 5 * 60_000,
    retry: false,
    queryFn: async () =>
      signatureBadge(await checkOwnFile(await filesApi.get(api, fileId), email ?? '', signingKey), 'you'),
  });
  if (check.data === undefined || check.data.tone === 'verified') return null;
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
