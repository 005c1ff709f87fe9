import type { ReactElement, ReactNode } from 'react';
import { Button, Card, Group, Text } from '@mantine/core';

interface SelectionBarProps {
  count: number;
  /** How many there are to select. */
  total: number;
  onSelectAll: () => void;
  onClear: () => void;
  onDone: () => void;
  /** The actions on the selection (download, move, share, delete). */
  children: ReactNode;
}

/**
 * The bar of a list in selection mode: how many are selected, Select all / Clear, the actions, and
 * Done. Sticks to the top of the page while the list scrolls.
 */
export function SelectionBar({
  count,
  total,
  onSelectAll,
  onClear,
  onDone,
  children,
}: SelectionBarProps): ReactElement {
  return (
    <Card
      withBorder
      radius="lg"
      padding="sm"
      role="region"
      aria-label="Selection"
      style={{ position: 'sticky', top: 8, zIndex: 5 }}
    >
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text fw={600} aria-live="polite" data-testid="selection-count">
            {count} selected
          </Text>
          {count < total ? (
            <Button variant="subtle" size="xs" onClick={onSelectAll}>
              Select all
            </Button>
          ) : (
            <Button variant="subtle" size="xs" onClick={onClear}>
              Clear
            </Button>
          )}
        </Group>
        <Group gap="xs">
          {children}
          <Button variant="default" size="xs" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
