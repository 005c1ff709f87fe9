import { useState, type ReactElement } from 'react';
import { Card, Group, Stack, Text } from '@mantine/core';
import { formatDateTime } from '@coffer/contracts';
import { IconClockEdit, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { linksApi } from '../../lib/links/links-api';
import { snackbar } from '../../lib/snackbar';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { IconAction } from '../../ui/IconAction';
import { StateBadge } from '../../ui/StateBadge';
import { ChangeLinkDialog } from './ChangeLinkDialog';
import { linkQueryKeys } from './link-query-keys';
import { linkStateLooks } from './link-states';
import type { LinkView } from './use-links';

/** One of my links: label, files, state, downloads left, expiry; revoke. */
export function LinkCard({
  link,
  fileNames,
}: {
  link: LinkView;
  /** File id → name (decrypted), for the files this link grants. */
  fileNames: ReadonlyMap<string, string>;
}): ReactElement {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [changing, setChanging] = useState(false);
  const revoke = useMutation({
    mutationFn: () => linksApi.revoke(api, link.linkId),
    onSuccess: async () => {
      setConfirming(false);
      snackbar.success('Link revoked');
      await queryClient.invalidateQueries({ queryKey: linkQueryKeys.all });
    },
    onError: () => {
      snackbar.danger('The link could not be revoked. Try again.');
    },
  });
  const names = link.fileIds.map((id) => fileNames.get(id) ?? 'A file').join(', ');
  const title = link.labelText ?? (link.fileIds.length === 1 ? names : `${link.fileIds.length} files`);
  return (
    <Card withBorder radius="md" padding="md" data-link-id={link.linkId} data-link-state={link.state}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} truncate="end">
              {title}
            </Text>
            {link.labelText !== null && (
              <Text size="sm" c="dimmed" truncate="end">
                {names}
              </Text>
            )}
          </Stack>
          <Group gap={4} wrap="nowrap">
            <IconAction
              tooltip="Change expiry and limit"
              label={`Change expiry and limit of ${title}`}
              icon={IconClockEdit}
              onClick={() => {
                setChanging(true);
              }}
            />
            <IconAction
              tooltip="Revoke"
              label={`Revoke link ${title}`}
              icon={IconTrash}
              color="red"
              onClick={() => {
                setConfirming(true);
              }}
            />
          </Group>
        </Group>
        <Group gap="xs">
          <StateBadge look={linkStateLooks[link.state]} tt="none" />
          {link.hasPassword && (
            <Text size="xs" c="dimmed">
              Password
            </Text>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {link.maxDownloads === null
            ? `${link.downloadsUsed} download${link.downloadsUsed === 1 ? '' : 's'}, no limit`
            : `${link.downloadsLeft ?? 0} of ${link.maxDownloads} downloads left`}
          {' · '}
          {link.expiresAt === null ? 'Never expires' : `Expires ${formatDateTime(link.expiresAt)}`}
        </Text>
      </Stack>
      <ChangeLinkDialog
        link={link}
        opened={changing}
        onClose={() => {
          setChanging(false);
        }}
      />
      <ConfirmDialog
        opened={confirming}
        title="Revoke this link?"
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={() => {
          revoke.mutate();
        }}
        onClose={() => {
          setConfirming(false);
        }}
      >
        <Text size="sm">
          Nobody will be able to open or download from this link again, including people you already sent it
          to. This cannot be undone.
        </Text>
      </ConfirmDialog>
    </Card>
  );
}
