import type { ReactElement } from 'react';
import { ActionIcon, Tooltip, type MantineColor } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

interface IconActionProps {
  /** The verb shown on hover ("Edit", "Delete"). */
  tooltip: string;
  /** The accessible name: the verb and what it acts on ("Delete report.pdf"). */
  label: string;
  icon: Icon;
  /** The theme's primary colour unless given; red for what removes something. */
  color?: MantineColor;
  onClick: () => void;
}

/** A card's icon button with its tooltip (edit, share, delete), alike on every list screen. */
export function IconAction({
  tooltip,
  label,
  icon: ActionGlyph,
  color,
  onClick,
}: IconActionProps): ReactElement {
  return (
    <Tooltip label={tooltip} withArrow>
      <ActionIcon variant="subtle" color={color} aria-label={label} onClick={onClick}>
        <ActionGlyph size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
