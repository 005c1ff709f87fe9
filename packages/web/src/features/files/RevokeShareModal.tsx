import type { ReactElement } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { FileShare } from '@coffer/contracts';
import type { FileView } from '../../lib/files/file-views';
import { FileNameWithFacts } from './FileNameWithFacts';
import { shareDisplayName } from './use-files';

export const REVOKE_TITLE = 'Revoke access?';

/**
 * Confirms revoking one person's access (issue 15, point 5): the "×" on a chip is easy to hit by
 * mistake, and sharing again needs the owner's keys. Mantine's Modal traps focus while open and
 * returns it to the "×" that opened it.
 */
export function RevokeShareModal({
  target,
  pending,
  onConfirm,
  onClose,
}: {
  target: { file: FileView; share: FileShare } | null;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}): ReactElement {
  return (
    <Modal opened={target !== null} onClose={onClose} title={REVOKE_TITLE} centered>
      <Stack gap="lg">
        <Text>
          <strong>{target === null ? '' : shareDisplayName(target.share)}</strong> will no longer be able to
          open {target === null ? null : <FileNameWithFacts file={target.file} />}. You can share it again
          later.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            Revoke
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
