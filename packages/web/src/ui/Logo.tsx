import type { ReactElement } from 'react';
import { Group, Text } from '@mantine/core';

/** The Coffer mark: a shield with a keyhole (the same drawing as `public/favicon.svg`). */
export function LogoMark({ size = 32 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="var(--mantine-color-coffer-8)" />
      <path
        d="M16 6.5 8.5 9.4v6.1c0 4.7 3.1 8.7 7.5 10 4.4-1.3 7.5-5.3 7.5-10V9.4L16 6.5Z"
        fill="none"
        stroke="#fff"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="16" cy="14.6" r="2.2" fill="#fff" />
      <path d="M15 16.2h2l.6 4.3h-3.2l.6-4.3Z" fill="#fff" />
    </svg>
  );
}

/** Mark and wordmark. */
export function Logo({ size = 32 }: { size?: number }): ReactElement {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} />
      <Text component="span" fw={700} fz={Math.round(size * 0.62)} lts={-0.3} c="var(--mantine-color-text)">
        Coffer
      </Text>
    </Group>
  );
}
