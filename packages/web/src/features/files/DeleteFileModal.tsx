import type { ReactElement } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { FileView } from '../../lib/files/file-views';
import { FileNameWithFacts } from './FileNameWithFacts';
import { useDeleteFile } from './use-files';

/** Confirms deleting a file; the people it is shared with lose access too. */
export function DeleteFileModal({
  opened,
  file,
  onClose,
}: {
  opened: boolean;
  file: FileView | null;
  onClose: () => void;
}): ReactElement {
  const remove = useDeleteFile();
  return (
    <Modal opened={opened && file !== null} onClose={onClose} title="Delete file" centered>
      <Stack gap="lg">
        <Text>
          Delete {file === null ? null : <FileNameWithFacts file={file} />}? It is removed from Coffer for you
          and for everyone you shared it with. This cannot be undone.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (file === null) return;
              remove.mutate(file, { onSettled: onClose });
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
