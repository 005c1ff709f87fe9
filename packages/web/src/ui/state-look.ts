import type { MantineColor } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

/**
 * How one state looks wherever it is shown (a badge, a callout's title): its words, colour and icon.
 * The words always come with it, so a state is never told by colour alone.
 */
export interface StateLook {
  readonly label: string;
  readonly color: MantineColor;
  readonly icon?: Icon;
}
