import type { ReactElement } from 'react';
import { Text } from '@mantine/core';
import type { FileShare } from '@coffer/contracts';
import type { FileView } from '../../lib/files/file-views';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FileNameWithFacts } from './FileNameWithFacts';
import { shareDisplayName } from './use-files';

export const REVOKE_TITLE = 'Revoke access?';

/**
 * Confirms revoking one person's access (issue 15, point 5): the "×" on a chip is easy to hit by
 * mistake, and sharing again needs the owner's keys. Focus goes back to that "×" when it closes.
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
    <ConfirmDialog
      opened={target !== null}
      onClose={onClose}
      title={REVOKE_TITLE}
      confirmLabel="Revoke"
      pending={pending}
      onConfirm={onConfirm}
    >
      <Text>
        <strong>{target === null ? '' : shareDisplayName(target.share)}</strong> will no longer be able to
        open {target === null ? null : <FileNameWithFacts file={target.file} />}. You can share it again
        later.
      </Text>
    </ConfirmDialog>
  );
}
