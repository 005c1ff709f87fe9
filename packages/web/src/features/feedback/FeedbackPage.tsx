import { useMemo, useState, type ReactElement } from 'react';
import type { FeedbackItem } from '@coffer/contracts';
import { feedbackMessages, formatDateTime } from '@coffer/contracts';
import { Alert, Button, Card, EmptyState, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconLock, IconMessageCircle, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import { useApiClient } from '../../lib/api/context';
import { feedbackApi } from '../../lib/api/endpoints';
import { isForbidden, retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { snackbar } from '../../lib/snackbar';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { IconAction } from '../../ui/IconAction';

const adminFeedbackKey = ['admin', 'feedback'] as const;

/** Ours: the spec quotes only the empty and blank-message texts of this page. */
export const adminFeedbackMessages = {
  title: 'Feedback',
  forbiddenTitle: "You don't have access to this page",
  forbiddenHint: 'The feedback list is only available to administrators.',
  loadFailed: 'Could not load feedback.',
  deleteSuccess: 'Feedback deleted.',
  deleteFailed: 'Error deleting feedback!',
} as const;

/** Newest first; entries with an unreadable timestamp go last. */
function byNewest(a: FeedbackItem, b: FeedbackItem): number {
  const time = (item: FeedbackItem): number => {
    const ms = Date.parse(item.timestamp);
    return Number.isNaN(ms) ? -Infinity : ms;
  };
  return time(b) - time(a);
}

/** Admin Feedback page (/feedback): every user's feedback, each with a delete action. */
export function FeedbackPage(): ReactElement {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const feedback = useQuery({
    queryKey: adminFeedbackKey,
    queryFn: () => feedbackApi.list(api),
    retry: retryUnlessClientError,
  });
  const entries = useMemo(() => [...(feedback.data ?? [])].sort(byNewest), [feedback.data]);
  const [deleteOpened, deleteModal] = useDisclosure(false);
  const [selected, setSelected] = useState<FeedbackItem | null>(null);

  const remove = useMutation({
    mutationFn: (item: FeedbackItem) => feedbackApi.delete(api, item.id),
    onSuccess: (_answer, item) => {
      queryClient.setQueryData<FeedbackItem[]>(adminFeedbackKey, (list) =>
        list?.filter((entry) => entry.id !== item.id),
      );
      snackbar.success(adminFeedbackMessages.deleteSuccess);
      deleteModal.close();
    },
    onError: () => {
      snackbar.danger(adminFeedbackMessages.deleteFailed);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminFeedbackKey }),
  });

  if (feedback.isError && isForbidden(feedback.error)) {
    return (
      <Stack gap="lg">
        <Title order={1}>{adminFeedbackMessages.title}</Title>
        <Card withBorder radius="lg" py="xl">
          <EmptyState
            icon={<IconLock size={28} aria-hidden />}
            variant="light"
            color="gray"
            title={adminFeedbackMessages.forbiddenTitle}
            description={adminFeedbackMessages.forbiddenHint}
          >
            <EmptyState.Actions>
              <Button component={Link} to={paths.newUpload} variant="default">
                Go to New Upload
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{adminFeedbackMessages.title}</Title>
        <Text c="dimmed">
          {feedback.data === undefined
            ? 'What users told the team.'
            : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}, newest first.`}
        </Text>
      </div>

      {feedback.isPending ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading feedback">
          {[0, 1].map((index) => (
            <Card key={index} withBorder radius="lg" padding="lg">
              <Skeleton height={12} width="40%" />
              <Skeleton height={10} mt="md" />
              <Skeleton height={10} mt={8} width="70%" />
            </Card>
          ))}
        </Stack>
      ) : feedback.isError ? (
        <Alert color="red" variant="light" title={adminFeedbackMessages.loadFailed}>
          <Button
            size="xs"
            variant="default"
            mt="xs"
            onClick={() => {
              void feedback.refetch();
            }}
          >
            Try again
          </Button>
        </Alert>
      ) : entries.length === 0 ? (
        <Card withBorder radius="lg" py="xl">
          <EmptyState
            icon={<IconMessageCircle size={28} aria-hidden />}
            variant="light"
            title={feedbackMessages.adminEmpty}
          />
        </Card>
      ) : (
        <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {entries.map((item) => (
            <li key={item.id}>
              <FeedbackEntry
                item={item}
                onDelete={() => {
                  setSelected(item);
                  deleteModal.open();
                }}
              />
            </li>
          ))}
        </Stack>
      )}

      <ConfirmDialog
        opened={deleteOpened && selected !== null}
        onClose={deleteModal.close}
        title="Delete feedback"
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => {
          if (selected !== null) remove.mutate(selected);
        }}
      >
        {selected !== null && (
          <Text>
            Delete this feedback from <strong>{selected.userEmail}</strong>? It cannot be restored.
          </Text>
        )}
      </ConfirmDialog>
    </Stack>
  );
}

function FeedbackEntry({ item, onDelete }: { item: FeedbackItem; onDelete: () => void }): ReactElement {
  const blank = item.message.trim() === '';
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="article"
      aria-label={`Feedback from ${item.userEmail}`}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={0} miw={0}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {item.userEmail}
          </Text>
          <Text size="sm" c="dimmed" component="time" dateTime={item.timestamp}>
            {formatDateTime(item.timestamp)}
          </Text>
        </Stack>
        <IconAction
          tooltip="Delete"
          label={`Delete feedback from ${item.userEmail}`}
          icon={IconTrash}
          color="red"
          onClick={onDelete}
        />
      </Group>
      {blank ? (
        <Text mt="sm" c="dimmed" fs="italic">
          {feedbackMessages.blankMessage}
        </Text>
      ) : (
        <Text mt="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {item.message}
        </Text>
      )}
    </Card>
  );
}
