import type { ReactElement } from 'react';
import { Alert, Badge, Loader, Text } from '@mantine/core';
import { IconKeyOff, IconShieldCheck, IconShieldQuestion, IconShieldX } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { SignatureBadge } from '../../lib/trust/signed-files';
import { isShareGone, NO_LONGER_SHARED_TEXT } from './no-longer-shared';

/** The words when the check itself failed (network, forged pins): the file is not offered. */
export const CHECK_FAILED_TEXT =
  'Coffer could not check who sent this file, so it is not offered for download.';

/**
 * Who signed a shared file, in words: "Signed by …", "Unsigned: …", or why Coffer refuses to open
 * it. `compact` for a card (a badge, and the refusal as one line), else a full alert.
 */
export function SharedFileSignature({
  check,
  compact = false,
}: {
  check: UseQueryResult<SignatureBadge>;
  compact?: boolean;
}): ReactElement | null {
  if (check.isPending && check.fetchStatus === 'idle') return null;
  if (check.isPending) {
    return (
      <Badge variant="light" color="gray" leftSection={<Loader size={10} color="gray" />}>
        Checking signature
      </Badge>
    );
  }
  if (check.isError && isShareGone(check.error)) {
    // Not a refusal: nothing is wrong with the file, the owner took it back.
    return (
      <Text size="sm" c="dimmed" role="status">
        {NO_LONGER_SHARED_TEXT}
      </Text>
    );
  }
  const badge: SignatureBadge = check.isError
    ? { tone: 'danger', text: CHECK_FAILED_TEXT, canOpen: false, askFirst: false }
    : check.data;
  switch (badge.tone) {
    case 'verified':
      return (
        <Badge
          variant="light"
          color="green"
          leftSection={<IconShieldCheck size={14} aria-hidden />}
          tt="none"
        >
          {badge.text}
        </Badge>
      );
    case 'unsigned':
      return (
        <Badge
          variant="light"
          color="yellow"
          leftSection={<IconShieldQuestion size={14} aria-hidden />}
          tt="none"
        >
          Unsigned
        </Badge>
      );
    case 'stale':
      // Not an attack: the owner can simply share again, so a calm tone and no "Refused".
      return compact ? (
        <Text size="sm" c="orange.8" role="status">
          {badge.text}
        </Text>
      ) : (
        <Alert
          color="orange"
          variant="light"
          role="status"
          title="Shared before your encryption reset"
          icon={<IconKeyOff size={20} aria-hidden />}
        >
          <Text size="sm">{badge.text}</Text>
        </Alert>
      );
    case 'danger':
      return compact ? (
        <Text size="sm" c="red" role="alert">
          Refused: {badge.text}
        </Text>
      ) : (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title="Coffer refused to open this file"
          icon={<IconShieldX size={20} aria-hidden />}
        >
          <Text size="sm">{badge.text}</Text>
        </Alert>
      );
  }
}
