import { useState, type ReactElement } from 'react';
import type { FileShare } from '@coffer/contracts';
import { Badge, CloseButton, Group, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import type { FileView } from '../../lib/files/file-views';
import { RevokeShareModal } from './RevokeShareModal';
import { shareDisplayName, useFileShares, useRevokeShare } from './use-files';
import type { DriveFileView } from './use-my-drive';

/**
 * "Shared with": the people who may view the file, each with a revoke action (spec section 2). A
 * file of my list that is not `shared` makes no call: it shows "Only you", or the share list another
 * screen put in the cache (the share dialog fetches and refreshes it).
 */
export function SharedWithList({ file }: { file: FileView }): ReactElement {
  const listed = (file as Partial<DriveFileView>).drive?.item;
  // The list says it is shared with nobody (a file from another screen's list is asked).
  const nobody = listed !== undefined && listed.shared !== true;
  const shares = useFileShares(file.id, !nobody);
  const onlyMe = nobody && shares.data === undefined;
  const revoke = useRevokeShare();
  const [confirming, setConfirming] = useState<FileShare | null>(null);
  const revoking = (share: FileShare): boolean =>
    revoke.isPending && revoke.variables.file.id === file.id && revoke.variables.share.email === share.email;

  return (
    <Stack gap={6} aria-label={`Shared with (${file.title})`} role="group">
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" lts={0.3}>
        Shared with
      </Text>
      {onlyMe ? (
        <Text size="sm" c="dimmed">
          Only you
        </Text>
      ) : shares.isPending ? (
        <Skeleton height={22} width="50%" radius="xl" />
      ) : shares.isError ? (
        <Text size="sm" c="dimmed">
          Could not load who this file is shared with.
        </Text>
      ) : shares.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Only you
        </Text>
      ) : (
        <Group gap={6}>
          {shares.data.map((share) => {
            const name = shareDisplayName(share);
            return (
              <Tooltip key={share.email} label={share.email} withArrow openDelay={300}>
                <Badge
                  variant="light"
                  color="gray"
                  size="lg"
                  radius="xl"
                  tt="none"
                  fw={500}
                  maw="100%"
                  data-share-email={share.email}
                  style={{ opacity: revoking(share) ? 0.5 : 1 }}
                  rightSection={
                    <CloseButton
                      size="xs"
                      radius="xl"
                      aria-label={`Revoke access for ${name}`}
                      disabled={revoking(share)}
                      onClick={() => {
                        setConfirming(share);
                      }}
                    />
                  }
                >
                  {name}
                </Badge>
              </Tooltip>
            );
          })}
        </Group>
      )}
      <RevokeShareModal
        target={confirming === null ? null : { file, share: confirming }}
        pending={revoke.isPending}
        onClose={() => {
          setConfirming(null);
        }}
        onConfirm={() => {
          if (confirming === null) return;
          revoke.mutate(
            { file, share: confirming },
            {
              onSettled: () => {
                setConfirming(null);
              },
            },
          );
        }}
      />
    </Stack>
  );
}
