import type { ReactElement, ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconFileZip, IconListCheck } from '@tabler/icons-react';
import { SelectionBar } from '../../ui/SelectionBar';
import type { Selection } from './use-selection';

/** "Select" in a list's header starts selection mode; "Done" leaves it (My Files, a shared folder). */
export function SelectModeButton({ selection }: { selection: Selection }): ReactElement {
  return (
    <Button
      variant={selection.active ? 'light' : 'default'}
      leftSection={<IconListCheck size={18} aria-hidden />}
      onClick={() => {
        if (selection.active) selection.stop();
        else selection.start();
      }}
    >
      {selection.active ? 'Done' : 'Select'}
    </Button>
  );
}

interface SelectionZipBarProps {
  selection: Selection;
  /** What Select all selects: the files and folders shown. */
  selectable: { readonly files: readonly string[]; readonly folders: readonly string[] };
  /** A ZIP is being made: Download ZIP waits. */
  zipRunning: boolean;
  /** Download ZIP: the selection as one archive. */
  onZip: () => void;
  /** The other actions on the selection (move, share, delete). */
  children?: ReactNode;
}

/** The selection bar of a list of folders and files: Select all, Clear, Done, Download ZIP, then the rest. */
export function SelectionZipBar({
  selection,
  selectable,
  zipRunning,
  onZip,
  children,
}: SelectionZipBarProps): ReactElement {
  return (
    <SelectionBar
      count={selection.count}
      total={selectable.files.length + selectable.folders.length}
      onSelectAll={() => {
        selection.set(selectable.files, selectable.folders);
      }}
      onClear={() => {
        selection.clear();
      }}
      onDone={() => {
        selection.stop();
      }}
    >
      <Button
        size="xs"
        leftSection={<IconFileZip size={16} aria-hidden />}
        disabled={selection.count === 0 || zipRunning}
        onClick={onZip}
      >
        Download ZIP
      </Button>
      {children}
    </SelectionBar>
  );
}
