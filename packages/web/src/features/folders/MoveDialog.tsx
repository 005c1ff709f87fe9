import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { Button, Group, Modal, Radio, ScrollArea, Stack, Text } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { IconFolder, IconHome } from '@tabler/icons-react';
import type { DriveFolder } from '../../lib/drive';

interface MoveDialogProps {
  opened: boolean;
  /** What moves ("report.pdf", "3 items"). */
  subject: string;
  folders: readonly DriveFolder[];
  /** Folders that cannot be the target (the moved folders and everything below them). */
  excluded: ReadonlySet<string>;
  /** Where it is now (preselected). */
  current: string | null;
  onClose: () => void;
  onMove: (target: string | null) => Promise<void>;
}

const TOP = 'top';

/** "Move to…": a folder picker (the tree, indented), then one move. */
export function MoveDialog({
  opened,
  subject,
  folders,
  excluded,
  current,
  onClose,
  onMove,
}: MoveDialogProps): ReactElement {
  const [target, setTarget] = useState<string>(current ?? TOP);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (opened) setTarget(current ?? TOP);
  }, [opened, current]);
  const rows = useMemo(() => treeRows(folders, excluded), [folders, excluded]);
  const chosen = target === TOP ? null : target;
  return (
    <Modal
      opened={opened}
      onClose={pending ? () => undefined : onClose}
      title={`Move ${subject} to…`}
      centered
    >
      <Stack gap="md">
        <Radio.Group value={target} onChange={setTarget} label="Folder">
          <ScrollArea.Autosize mah={320} type="auto">
            <Stack gap={6} mt="xs">
              <Radio
                value={TOP}
                label={
                  <Group gap={6} wrap="nowrap">
                    <IconHome size={16} aria-hidden /> My Files
                  </Group>
                }
              />
              {rows.map(({ folder, depth }) => (
                <Radio
                  key={folder.nodeId}
                  value={folder.nodeId}
                  pl={depth * 20}
                  label={
                    <Group gap={6} wrap="nowrap">
                      <IconFolder size={16} aria-hidden />
                      <Text size="sm" truncate="end" maw={260}>
                        {folder.name}
                      </Text>
                    </Group>
                  }
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Radio.Group>
        <DialogActions onCancel={onClose} pending={pending}>
          <Button
            loading={pending}
            disabled={chosen === current}
            onClick={() => {
              setPending(true);
              onMove(chosen).then(
                () => {
                  setPending(false);
                  onClose();
                },
                () => {
                  setPending(false);
                },
              );
            }}
          >
            Move here
          </Button>
        </DialogActions>
      </Stack>
    </Modal>
  );
}

/** The opened folders depth first, each with its depth; excluded folders (and their subtrees) left out. */
function treeRows(
  folders: readonly DriveFolder[],
  excluded: ReadonlySet<string>,
): { folder: DriveFolder; depth: number }[] {
  const children = new Map<string | null, DriveFolder[]>();
  for (const folder of folders) {
    if (folder.state !== 'open') continue;
    const list = children.get(folder.parentNodeId) ?? [];
    list.push(folder);
    children.set(folder.parentNodeId, list);
  }
  const rows: { folder: DriveFolder; depth: number }[] = [];
  const walk = (parent: string | null, depth: number): void => {
    const kids = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const folder of kids) {
      if (excluded.has(folder.nodeId)) continue;
      rows.push({ folder, depth });
      walk(folder.nodeId, depth + 1);
    }
  };
  walk(null, 1);
  return rows;
}
