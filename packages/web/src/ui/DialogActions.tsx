import type { ReactElement, ReactNode } from 'react';
import { Button, Group, type MantineSpacing } from '@mantine/core';

interface DialogActionsProps {
  /** The way back's label ("Cancel", or "Close" where nothing is left to undo). */
  cancelLabel?: string;
  onCancel: () => void;
  /** While the action runs the way back is closed (the action's own button shows it spinning). */
  pending: boolean;
  /** Start on the way back (a confirmation inside a page; a modal moves focus into itself). */
  focusCancel?: boolean;
  /** On a narrow screen the action stays on top and the way back wraps below it. */
  actionOnTop?: boolean;
  mt?: MantineSpacing;
  /** The action (a submit button, or a button with its own click). */
  children: ReactNode;
}

/** A dialog's or form's footer: the way back first, then the action, on the right. */
export function DialogActions({
  cancelLabel = 'Cancel',
  onCancel,
  pending,
  focusCancel = false,
  actionOnTop = false,
  mt,
  children,
}: DialogActionsProps): ReactElement {
  return (
    <Group justify="flex-end" gap="sm" mt={mt} wrap={actionOnTop ? 'wrap-reverse' : 'wrap'}>
      <Button
        variant="default"
        onClick={onCancel}
        disabled={pending}
        {...(focusCancel ? { 'data-autofocus': true, autoFocus: true } : {})}
      >
        {cancelLabel}
      </Button>
      {children}
    </Group>
  );
}
