import type { ReactElement, ReactNode } from 'react';
import { Card, Group, SimpleGrid, Skeleton, Stack } from '@mantine/core';

/** The responsive grid of file cards: one column on phones, up to three on wide screens. */
export function FilesGrid({ children, label }: { children: ReactNode; label: string }): ReactElement {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" aria-label={label} role="list">
      {children}
    </SimpleGrid>
  );
}

export function FilesSkeleton({ label }: { label: string }): ReactElement {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" aria-busy="true" aria-label={label}>
      {[0, 1, 2].map((index) => (
        <Card key={index} withBorder radius="lg" padding="lg">
          <Group gap="sm" wrap="nowrap">
            <Skeleton height={44} width={44} radius="md" />
            <Stack gap={6} flex={1}>
              <Skeleton height={12} width="70%" />
              <Skeleton height={10} width="50%" />
            </Stack>
          </Group>
          <Skeleton height={26} width={110} mt="lg" />
        </Card>
      ))}
    </SimpleGrid>
  );
}
