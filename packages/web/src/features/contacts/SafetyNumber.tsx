import { useId, type ReactElement } from 'react';
import { Code, Stack, Text } from '@mantine/core';

interface SafetyNumberProps {
  label: string;
  /** `publicKeyFingerprint` output: 16 groups of 4 hex digits separated by spaces. */
  fingerprint: string;
  hint?: string;
  /** Smaller type and padding, for a contact card. */
  compact?: boolean;
}

/**
 * A public-key fingerprint laid out as 4 × 4 groups, so two people can read it to each other a row
 * at a time. Its text stays one space-separated string for copying and screen readers.
 */
export function SafetyNumber({ label, fingerprint, hint, compact = false }: SafetyNumberProps): ReactElement {
  const labelId = useId();
  const groups = fingerprint.split(' ');
  return (
    <Stack gap={6}>
      <Text size={compact ? 'xs' : 'sm'} fw={500} id={labelId}>
        {label}
      </Text>
      <Code
        block
        aria-labelledby={labelId}
        fz={compact ? 'xs' : 'sm'}
        px={compact ? 'sm' : 'md'}
        py={compact ? 6 : 'sm'}
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(4, max-content)',
          columnGap: '1.25em',
          rowGap: '0.35em',
          justifyContent: 'start',
          whiteSpace: 'normal',
        }}
      >
        {groups.map((group, index) => (
          // Groups can repeat ('0000'), so the position is the key; the list never reorders.
          <span key={index}>{index < groups.length - 1 ? `${group} ` : group}</span>
        ))}
      </Code>
      {hint !== undefined && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
