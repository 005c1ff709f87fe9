import type { ComponentPropsWithoutRef, ReactElement, ReactNode } from 'react';
import { Box, Card, Group, Stack } from '@mantine/core';

type ItemCardProps = {
  /** The id of the title inside `main`: the card is named by it. */
  titleId: string;
  /** Before the icon (a selection checkbox). */
  leading?: ReactNode;
  /** The item's type icon. */
  icon: ReactNode;
  /** Its title and the lines under it. */
  main: ReactNode;
  /** Icon actions; on a narrow card they take their own row under the title. */
  actions?: ReactNode;
  /** How the head's parts line up (a file's lines start at the top, a folder's centre). */
  align?: 'flex-start' | 'center';
  /** Below the head (download, who it is shared with). */
  children?: ReactNode;
} & Omit<ComponentPropsWithoutRef<'article'>, 'children'>;

/** Checkbox, icon and title keep at least this much room before the actions move to their own row. */
const HEAD_MIN_WIDTH = 220;

/**
 * One item of a list screen's grid (a file, a folder): an article named by its title, with an
 * optional checkbox, its icon, its title block and its icon actions, then whatever goes below.
 */
export function ItemCard({
  titleId,
  leading,
  icon,
  main,
  actions,
  align = 'flex-start',
  children,
  ...article
}: ItemCardProps): ReactElement {
  return (
    <Card component="article" withBorder radius="lg" padding="lg" aria-labelledby={titleId} {...article}>
      <Stack gap="md" h="100%" justify="space-between">
        <Group gap="sm" wrap="wrap" align={align} justify="flex-end">
          <Group gap="sm" wrap="nowrap" align={align} flex={`1 1 ${HEAD_MIN_WIDTH}px`} miw={0}>
            {leading}
            {icon}
            <Box miw={0} flex={1}>
              {main}
            </Box>
          </Group>
          {actions !== undefined && (
            <Group gap={4} wrap="nowrap">
              {actions}
            </Group>
          )}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
