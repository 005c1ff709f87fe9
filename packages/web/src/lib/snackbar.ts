import { createElement } from 'react';
import type { MantineColor } from '@mantine/core';
import { notifications, type NotificationData } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconX } from '@tabler/icons-react';

/** The spec's snackbar colours. */
export type SnackbarColor = 'success' | 'danger' | 'warning';

/** The spec: a snackbar auto-hides after 8 seconds. */
export const SNACKBAR_AUTO_CLOSE_MS = 8000;

/** The accessible name of a snackbar's close button. */
export const SNACKBAR_CLOSE_LABEL = 'Close notification';

export const SNACKBAR_MANTINE_COLOR: Readonly<Record<SnackbarColor, MantineColor>> = {
  success: 'green',
  danger: 'red',
  warning: 'orange',
};

const ICONS = { success: IconCheck, danger: IconX, warning: IconAlertTriangle } as const;

/** The notification a snackbar shows; separate from `showSnackbar` so it can be checked without rendering. */
export function snackbarOptions(message: string, color: SnackbarColor = 'success'): NotificationData {
  return {
    message,
    color: SNACKBAR_MANTINE_COLOR[color],
    icon: createElement(ICONS[color], { size: 18, stroke: 2, 'aria-hidden': true }),
    autoClose: SNACKBAR_AUTO_CLOSE_MS,
    withCloseButton: true,
    allowClose: true,
    // Mantine's close button is an icon alone: without a label, screen readers announce "button".
    closeButtonProps: { 'aria-label': SNACKBAR_CLOSE_LABEL },
    // Errors interrupt; success and warnings wait their turn for screen readers.
    role: color === 'danger' ? 'alert' : 'status',
  };
}

/** Shows a snackbar toast and returns its id (for `notifications.hide`). */
export function showSnackbar(message: string, color: SnackbarColor = 'success'): string {
  return notifications.show(snackbarOptions(message, color));
}

export const snackbar = {
  success: (message: string): string => showSnackbar(message, 'success'),
  danger: (message: string): string => showSnackbar(message, 'danger'),
  warning: (message: string): string => showSnackbar(message, 'warning'),
} as const;
