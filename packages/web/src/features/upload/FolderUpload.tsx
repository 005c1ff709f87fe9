import { Fragment, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Button, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { IconFolderUp } from '@tabler/icons-react';
import { useTransfers } from '../files/use-transfers';
import { dropHasFolder, filesOfDirectoryInput, filesOfDrop } from './folder-entries';
import { useFolderUpload, type FolderUploadState } from './use-folder-upload';

/**
 * New Upload's folder upload: "Choose folder" (`<input webkitdirectory>`) and a drop of a folder
 * onto the drop zone (walked with `webkitGetAsEntry`), tree kept; the total "n of m files" and each
 * file's own progress. Wraps the drop zone: a drop that carries a folder is taken here, loose files
 * go on to the zone as before.
 */
export function FolderUpload({
  target,
  children,
}: {
  /** The folder to upload into (null: the top of My Files). */
  target: string | null;
  /** The ordinary drop zone. */
  children: ReactNode;
}): ReactElement {
  const upload = useFolderUpload(target);
  // A folder drop is taken here before the drop zone sees it, so the zone would stay in its
  // "drag accepted" look: it is mounted afresh after each one.
  const [folderDrops, setFolderDrops] = useState(0);
  const input = useRef<HTMLInputElement | null>(null);
  // Made on click and removed after: a second file input always on the page would be a trap for
  // anything that looks for "the" file input of the drop zone (tests, extensions).
  const choose = (): void => {
    input.current?.remove();
    const element = document.createElement('input');
    element.type = 'file';
    element.multiple = true;
    element.hidden = true;
    element.webkitdirectory = true;
    element.dataset.testid = 'folder-input';
    const done = (): void => {
      element.remove();
      if (input.current === element) input.current = null;
    };
    element.addEventListener('change', () => {
      const files = Array.from(element.files ?? []);
      done();
      if (files.length > 0) upload.start(filesOfDirectoryInput(files));
    });
    element.addEventListener('cancel', done);
    document.body.append(element);
    input.current = element;
    element.click();
  };
  const running = upload.state?.phase === 'creating' || upload.state?.phase === 'uploading';
  return (
    <Stack gap="sm">
      <div
        onDropCapture={(event) => {
          if (!dropHasFolder(event.dataTransfer.items)) return;
          event.preventDefault();
          event.stopPropagation();
          setFolderDrops((count) => count + 1);
          if (running || !upload.ready) return;
          void filesOfDrop(event.dataTransfer.items).then(upload.start);
        }}
      >
        <Fragment key={folderDrops}>{children}</Fragment>
      </div>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconFolderUp size={18} aria-hidden />}
          disabled={running || !upload.ready}
          onClick={choose}
        >
          Choose folder
        </Button>
        <Text size="sm" c="dimmed">
          A folder counts as one item: all its files are uploaded, its folders kept.
        </Text>
      </Group>
      {upload.state !== null && <FolderUploadCard state={upload.state} />}
    </Stack>
  );
}

function FolderUploadCard({ state }: { state: FolderUploadState }): ReactElement {
  const { uploads } = useTransfers();
  const mine = uploads.filter((item) => state.transferIds.includes(item.id));
  const running = mine.reduce((sum, item) => sum + item.progress / 100, 0);
  const percent = state.total === 0 ? 100 : ((state.done + state.failed + running) / state.total) * 100;
  return (
    <Card withBorder radius="lg" padding="md" role="status" aria-label={`Folder upload ${state.label}`}>
      <Group justify="space-between" gap="sm">
        <Text fw={600} truncate="end">
          {state.label}
        </Text>
        <Text size="sm" c={state.phase === 'failed' ? 'red' : 'dimmed'} data-testid="folder-upload-total">
          {state.phase === 'creating'
            ? 'Creating folders...'
            : (state.error ?? `${state.done} of ${state.total} files`)}
        </Text>
      </Group>
      <Progress
        value={Math.min(100, percent)}
        mt="xs"
        aria-label={`Upload of folder ${state.label}`}
        transitionDuration={0}
      />
      {mine.length > 0 && (
        <Stack
          gap={4}
          mt="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label="Files of the folder"
        >
          {mine.map((item) => (
            <Group key={item.id} component="li" gap="sm" wrap="nowrap" aria-label={item.fileName}>
              <Text size="xs" truncate="end" flex={1}>
                {item.fileName}
              </Text>
              <Text size="xs" c="dimmed" w={160} ta="right" truncate="end">
                {item.statusText}
              </Text>
              <Progress
                value={item.progress}
                w={80}
                size="sm"
                transitionDuration={0}
                aria-label={`Upload of ${item.fileName}`}
              />
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
