import type { ReactElement } from 'react';
import { Badge, type BadgeProps } from '@mantine/core';
import type { StateLook } from './state-look';

type StateBadgeProps = { look: StateLook } & Omit<
  BadgeProps,
  'color' | 'variant' | 'leftSection' | 'children'
>;

/** A state in a few words, as a light badge led by its icon. Other props (`tt`, `data-*`) go to the badge. */
export function StateBadge({ look, ...badge }: StateBadgeProps): ReactElement {
  const { label, color, icon: Icon } = look;
  return (
    <Badge
      variant="light"
      color={color}
      leftSection={Icon === undefined ? undefined : <Icon size={14} aria-hidden />}
      {...badge}
    >
      {label}
    </Badge>
  );
}
