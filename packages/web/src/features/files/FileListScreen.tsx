import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { Card, Group, Skeleton, Stack } from '@mantine/core';
import {
  defaultFileListControls,
  visibleFiles,
  type FileListControls as Controls,
} from '../../lib/files/file-list';
import type { FileView } from '../../lib/files/file-views';
import { CardGrid } from '../../ui/CardGrid';
import { ListScreen, type ListEmpty, type ListQueryState } from '../../ui/ListScreen';
import { FileListControls } from './FileListControls';
import { ShowMore } from './ShowMore';

/**
 * Cards rendered at first, and added each time the end of the grid comes near (`ShowMore`). About
 * two screens of a wide window: rendering a card costs more than opening its name (Mantine's
 * buttons and tooltips), so the first screen does not wait for cards below it (issue 31, 10,000 files).
 */
export const CARDS_PER_SCREEN = 24;

interface FileListScreenProps<F extends FileView> {
  title: string;
  description: string;
  headerAside?: ReactNode;
  files: readonly F[];
  query: ListQueryState;
  searchPlaceholder?: string;
  /** The accessible names of the grid while it loads and once it lists. */
  loadingLabel: string;
  listLabel: string;
  loadErrorTitle: string;
  /** What to say when no file is shown; `all` tells an empty list from filters that hide every file. */
  empty: (all: number) => ListEmpty;
  /** One file's card. */
  card: (file: F) => ReactNode;
  /** Under the controls, above the grid (breadcrumbs, a selection bar). */
  notice?: ReactNode;
  /** Cards before the file cards (a folder's subfolders), given the search text. */
  leading?: (search: string) => readonly { key: string; node: ReactNode }[];
  /** The search text as it changes (My Files searches every folder while it is not empty). */
  onSearchChange?: (search: string) => void;
}

/**
 * My Files and Shared With Me: the list screen with search, type filter and sort (spec section 2)
 * over a grid of file cards.
 */
export function FileListScreen<F extends FileView>({
  files,
  searchPlaceholder,
  loadingLabel,
  listLabel,
  empty,
  card,
  leading,
  onSearchChange,
  ...screen
}: FileListScreenProps<F>): ReactElement {
  const [controls, setControls] = useState<Controls>(defaultFileListControls);
  const visible = useMemo(() => visibleFiles(files, controls), [files, controls]);
  const [limit, setLimit] = useState(CARDS_PER_SCREEN);
  useEffect(() => {
    setLimit(CARDS_PER_SCREEN);
  }, [controls]);
  useEffect(() => {
    onSearchChange?.(controls.search);
  }, [controls.search, onSearchChange]);
  const before = leading?.(controls.search) ?? [];
  const shown = visible.length > limit ? visible.slice(0, limit) : visible;
  return (
    <ListScreen
      {...screen}
      controls={
        <FileListControls value={controls} onChange={setControls} searchPlaceholder={searchPlaceholder} />
      }
      loading={<FilesSkeleton label={loadingLabel} />}
      empty={visible.length > 0 || before.length > 0 ? null : empty(files.length)}
    >
      <CardGrid aria-label={listLabel} role="list">
        {before.map(({ key, node }) => (
          <div role="listitem" key={key}>
            {node}
          </div>
        ))}
        {shown.map((file) => (
          <div role="listitem" key={file.id}>
            {card(file)}
          </div>
        ))}
      </CardGrid>
      {shown.length < visible.length && (
        <ShowMore
          remaining={visible.length - shown.length}
          onMore={() => {
            setLimit((current) => current + CARDS_PER_SCREEN);
          }}
        />
      )}
    </ListScreen>
  );
}

function FilesSkeleton({ label }: { label: string }): ReactElement {
  return (
    <CardGrid aria-busy="true" aria-label={label}>
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
    </CardGrid>
  );
}
