import type { ReactElement, ReactNode } from 'react';
import {
  Anchor,
  Checkbox,
  Group,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  type CheckboxProps,
} from '@mantine/core';
import { Link } from 'react-router';

/** What a picker says when its list could not be loaded, or has nothing to pick yet. */
export interface PickerWords {
  failed: string;
  /** "You have no … yet.", followed by a link to where to get some, and what for. */
  none: string;
  link: { label: string; to: string };
  purpose: string;
}

/** Where a picker's list stands: still loading, or failed to load. */
export interface PickerLoadState {
  loading: boolean;
  failed: boolean;
}

interface PickerSectionProps extends PickerLoadState {
  title: string;
  words: PickerWords;
  /** Nothing to pick: the words say so instead of showing the list. */
  empty: boolean;
  children: ReactNode;
}

/** One list to pick from, under its title: loading rows, why it failed, why it is empty, or the list. */
export function PickerSection({
  title,
  words,
  loading,
  failed,
  empty,
  children,
}: PickerSectionProps): ReactElement {
  return (
    <Stack gap={6} role="group" aria-label={title}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {loading ? (
        <LoadingRows />
      ) : failed ? (
        <Text size="sm" c="red">
          {words.failed}
        </Text>
      ) : empty ? (
        <Text size="sm" c="dimmed">
          {words.none}{' '}
          <Anchor component={Link} to={words.link.to} size="sm">
            {words.link.label}
          </Anchor>{' '}
          {words.purpose}
        </Text>
      ) : (
        children
      )}
    </Stack>
  );
}

function LoadingRows(): ReactElement {
  return (
    <Stack gap={8} aria-busy="true">
      <Skeleton height={18} width="70%" />
      <Skeleton height={18} width="55%" />
    </Stack>
  );
}

/** The scrolling list of a picker, at most `mah` high. */
export function PickerList({ mah, children }: { mah: number; children: ReactNode }): ReactElement {
  return (
    <ScrollArea.Autosize mah={mah} type="auto" offsetScrollbars>
      <Stack gap="sm" py={2}>
        {children}
      </Stack>
    </ScrollArea.Autosize>
  );
}

/** One thing to pick: its checkbox, and beside it what it is (an avatar, a file type). */
export function PickerRow({ aside, ...checkbox }: CheckboxProps & { aside: ReactNode }): ReactElement {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <Checkbox flex={1} miw={0} {...checkbox} />
      {aside}
    </Group>
  );
}
