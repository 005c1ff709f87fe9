import { useState, type ReactElement } from 'react';
import { Card, Group, Stack, Text } from '@mantine/core';
import { formatDateTime, formatSize } from '@coffer/contracts';
import { IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { linksApi } from '../../lib/links/links-api';
import type { OwnerRequest } from '../../lib/links/link-wire';
import { snackbar } from '../../lib/snackbar';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { IconAction } from '../../ui/IconAction';
import { StateBadge } from '../../ui/StateBadge';
import { linkQueryKeys } from './link-query-keys';
import { requestStateLooks } from './link-states';

/** One of my file requests: state, what arrived (files listed by name), limits, expiry; close. */
export function RequestCard({
  request,
  fileNames,
}: {
  request: OwnerRequest;
  fileNames: ReadonlyMap<string, string>;
}): ReactElement {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const close = useMutation({
    mutationFn: () => linksApi.updateRequest(api, request.requestId, { closed: true }),
    onSuccess: async () => {
      setConfirming(false);
      snackbar.success('Request closed');
      await queryClient.invalidateQueries({ queryKey: linkQueryKeys.all });
    },
    onError: () => {
      snackbar.danger('The request could not be closed. Try again.');
    },
  });
  // A signed-in-only request names who sent each file.
  const senderOf = new Map(request.senders.map((sender) => [sender.fileId, sender.email]));
  const arrived = request.fileIds.map((id) => {
    const name = fileNames.get(id) ?? 'A file';
    const sender = senderOf.get(id);
    return sender === undefined ? name : `${name} (from ${sender})`;
  });
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-request-id={request.requestId}
      data-request-state={request.state}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>File request</Text>
          {request.state === 'active' && (
            <IconAction
              tooltip="Close"
              label="Close this file request"
              icon={IconLock}
              color="red"
              onClick={() => {
                setConfirming(true);
              }}
            />
          )}
        </Group>
        <Group gap="xs">
          <StateBadge look={requestStateLooks[request.state]} tt="none" />
          {request.signedInOnly && (
            <Text size="xs" c="dimmed">
              Signed-in people only
            </Text>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {request.filesUsed} of {request.maxFiles} files · {formatSize(request.bytesUsed)} of{' '}
          {formatSize(request.maxBytes)}
          {' · '}
          {request.expiresAt === null ? 'Never expires' : `Expires ${formatDateTime(request.expiresAt)}`}
        </Text>
        {arrived.length > 0 && (
          <Text size="sm" truncate="end">
            Received: {arrived.join(', ')}
          </Text>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Close this file request?"
        confirmLabel="Close request"
        pending={close.isPending}
        onConfirm={() => {
          close.mutate();
        }}
        onClose={() => {
          setConfirming(false);
        }}
      >
        <Text size="sm">
          Nobody will be able to upload through it again. The files that already arrived stay in My Files.
          This cannot be undone.
        </Text>
      </ConfirmDialog>
    </Card>
  );
}
