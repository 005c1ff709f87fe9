import type { ReactElement, ReactNode } from 'react';
import { Button, Modal, Stack } from '@mantine/core';
import { DialogActions } from './DialogActions';

interface ConfirmActionsProps {
  /** The red button's label: the verb of what cannot be taken back ("Delete", "Revoke", "Leave"). */
  confirmLabel: string;
  cancelLabel?: string;
  /** While the action runs: the red button spins and the way back is closed. */
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /**
   * Start on the way back. Only for a confirmation inside a page: a modal already moves focus
   * into itself and returns it to what opened it.
   */
  focusCancel?: boolean;
}

/** A confirmation's buttons: the way back first, then the red action. */
export function ConfirmActions({
  confirmLabel,
  cancelLabel = 'Cancel',
  pending,
  onConfirm,
  onCancel,
  focusCancel = false,
}: ConfirmActionsProps): ReactElement {
  return (
    <DialogActions
      cancelLabel={cancelLabel}
      onCancel={onCancel}
      pending={pending}
      focusCancel={focusCancel}
      actionOnTop
    >
      <Button color="red" loading={pending} onClick={onConfirm}>
        {confirmLabel}
      </Button>
    </DialogActions>
  );
}

interface ConfirmDialogProps extends Omit<ConfirmActionsProps, 'onCancel' | 'focusCancel'> {
  opened: boolean;
  title: string;
  /** Closing the dialog (Escape, the "×", outside) is the same as the way back. */
  onClose: () => void;
  /** What happens, to what, and whether it can be undone. */
  children: ReactNode;
}

/**
 * The one confirm dialog of the app (delete, revoke, leave): a question, the way back, and a red
 * action. Mantine's Modal traps focus while open and returns it to the control that opened it.
 */
export function ConfirmDialog({
  opened,
  title,
  onClose,
  children,
  ...actions
}: ConfirmDialogProps): ReactElement {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="lg">
        {children}
        <ConfirmActions {...actions} onCancel={onClose} />
      </Stack>
    </Modal>
  );
}
