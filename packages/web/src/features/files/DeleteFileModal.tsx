import type { ReactElement } from 'react';
import { Text } from '@mantine/core';
import type { FileView } from '../../lib/files/file-views';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
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
    <ConfirmDialog
      opened={opened && file !== null}
      onClose={onClose}
      title="Delete file"
      confirmLabel="Delete"
      pending={remove.isPending}
      onConfirm={() => {
        if (file === null) return;
        remove.mutate(file, { onSettled: onClose });
      }}
    >
      <Text>
        Delete {file === null ? null : <FileNameWithFacts file={file} />}? It is removed from Coffer for you
        and for everyone you shared it with. This cannot be undone.
      </Text>
    </ConfirmDialog>
  );
}
