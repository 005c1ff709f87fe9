import type { ReactElement } from 'react';
import { SimpleGrid, type SimpleGridProps } from '@mantine/core';

/** The list screens' grid of cards: one column on phones, two from `sm`, three on wide screens. */
export function CardGrid(props: Omit<SimpleGridProps, 'cols' | 'spacing'>): ReactElement {
  return <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" {...props} />;
}
