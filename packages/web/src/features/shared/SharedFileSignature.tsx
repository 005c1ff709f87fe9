import type { ReactElement } from 'react';
import { Badge, Loader, Text } from '@mantine/core';
import { IconKeyOff, IconShieldCheck, IconShieldQuestion, IconShieldX } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { SignatureBadge } from '../../lib/trust/signed-files';
import { StateBadge } from '../../ui/StateBadge';
import { StateCallout } from '../../ui/StateCallout';
import type { StateLook } from '../../ui/state-look';
import { isShareGone, NO_LONGER_SHARED_TEXT } from './no-longer-shared';

/** The words when the check itself failed (network, forged pins): the file is not offered. */
export const CHECK_FAILED_TEXT =
  'Coffer could not check who sent this file, so it is not offered for download.';

/** Why a shared file is not opened: as a callout, or (compact, on a card) one line. */
const REFUSALS: Record<
  'stale' | 'danger',
  { look: StateLook; role: 'alert' | 'status'; lineColor: string; line: (text: string) => string }
> = {
  // Not an attack: the owner can simply share again, so a calm tone and no "Refused".
  stale: {
    look: { label: 'Shared before your encryption reset', color: 'orange', icon: IconKeyOff },
    role: 'status',
    lineColor: 'orange.8',
    line: (text) => text,
  },
  danger: {
    look: { label: 'Coffer refused to open this file', color: 'red', icon: IconShieldX },
    role: 'alert',
    lineColor: 'red',
    line: (text) => `Refused: ${text}`,
  },
};

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
      return <StateBadge look={{ label: badge.text, color: 'green', icon: IconShieldCheck }} tt="none" />;
    case 'unsigned':
      return <StateBadge look={{ label: 'Unsigned', color: 'yellow', icon: IconShieldQuestion }} tt="none" />;
    case 'stale':
    case 'danger': {
      const { look, role, lineColor, line } = REFUSALS[badge.tone];
      return compact ? (
        <Text size="sm" c={lineColor} role={role}>
          {line(badge.text)}
        </Text>
      ) : (
        <StateCallout look={look} role={role} reason={badge.text} />
      );
    }
  }
}
