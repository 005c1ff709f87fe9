import type { ReactElement } from 'react';
import { Badge, Paper, Stack, Text, Title } from '@mantine/core';

/** Stands in for a screen that a later issue builds. Clearly marked so it is never mistaken for one. */
export function ScreenPlaceholder({ title }: { title: string }): ReactElement {
  return (
    <Stack gap="lg" data-placeholder={title}>
      <Title order={1}>{title}</Title>
      <Paper withBorder radius="lg" p="xl" style={{ borderStyle: 'dashed' }}>
        <Stack gap="xs" align="flex-start">
          <Badge variant="light" color="gray">
            Placeholder
          </Badge>
          <Text c="dimmed">This screen is not built yet.</Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
