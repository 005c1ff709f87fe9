import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { Checkbox, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconFolder, IconFolderX } from '@tabler/icons-react';
import type { DriveFolder } from '../../lib/drive';
import { ItemCard } from '../../ui/ItemCard';
import { draggableNode, dropTarget, type DraggedNode } from './node-drag';

interface FolderCardProps {
  folder: DriveFolder;
  /** Opens the folder (/myfiles?folder=…). */
  onOpen: () => void;
  /** A line under the name (e.g. its path in search results). */
  subtitle?: ReactNode;
  /** Icon actions (rename, move, share, delete). */
  actions?: ReactNode;
  /** A card or a selection dropped on this folder. */
  onDropNode?: (node: DraggedNode) => void;
  /** In selection mode: whether it is selected, and how to toggle it. */
  selected?: boolean;
  onSelect?: (selected: boolean) => void;
}

/** One folder in a grid, before the file cards: click to open, drop a card on it to move it in. */
export function FolderCard({
  folder,
  onOpen,
  subtitle,
  actions,
  onDropNode,
  selected,
  onSelect,
}: FolderCardProps): ReactElement {
  const titleId = useId();
  const [over, setOver] = useState(false);
  const unreadable = folder.state === 'unreadable';
  return (
    <ItemCard
      titleId={titleId}
      align="center"
      data-folder-id={folder.nodeId}
      data-drop-over={over || undefined}
      style={over ? { outline: '2px solid var(--mantine-primary-color-filled)' } : undefined}
      {...(unreadable ? {} : draggableNode({ kind: 'folder', id: folder.nodeId }))}
      {...(onDropNode === undefined || unreadable ? {} : dropTarget(onDropNode, setOver))}
      leading={
        onSelect === undefined ? undefined : (
          <Checkbox
            aria-label={`Select ${folder.name}`}
            checked={selected === true}
            onChange={(event) => {
              onSelect(event.currentTarget.checked);
            }}
          />
        )
      }
      icon={
        <ThemeIcon size={44} radius="md" variant="light" color={unreadable ? 'red' : 'yellow'}>
          {unreadable ? <IconFolderX size={24} aria-hidden /> : <IconFolder size={24} aria-hidden />}
        </ThemeIcon>
      }
      main={
        <>
          <UnstyledButton
            onClick={onOpen}
            disabled={unreadable}
            w="100%"
            title={folder.problem}
            aria-label={`Open ${folder.name}`}
          >
            <Text id={titleId} fw={600} truncate="end" data-testid="folder-title">
              {folder.name}
            </Text>
          </UnstyledButton>
          <Text size="sm" c="dimmed" truncate="end">
            {subtitle ?? (unreadable ? 'Did not open' : 'Folder')}
          </Text>
        </>
      }
      actions={actions}
    />
  );
}
