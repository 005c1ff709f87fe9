import type { ReactElement } from 'react';
import { Group, Text } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';

/** The sender line of a shared file's or folder's card: "From {owner}". */
export function SenderLine({ owner }: { owner: string }): ReactElement {
  return (
    <Group gap={4} wrap="nowrap" miw={0}>
      <IconUser size={14} color="var(--mantine-color-dimmed)" aria-hidden />
      <Text size="sm" c="dimmed" truncate="end" title={owner}>
        From {owner}
      </Text>
    </Group>
  );
}
