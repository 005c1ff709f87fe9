import { useState, type ReactElement } from 'react';
import { Button } from '@mantine/core';
import { IconLinkPlus } from '@tabler/icons-react';
import { LINK_MAX_ITEMS } from '@coffer/contracts';
import type { LinkFile } from '../../lib/links/link-create';
import { CreateLinkDialog } from './CreateLinkDialog';

/**
 * "Create link" on a selection of files (My Files' selection bar): one link for all of them, with
 * the same settings as a single file's (issue 30). At most {@link LINK_MAX_ITEMS} files.
 */
export function CreateLinkButton({ files }: { files: readonly LinkFile[] }): ReactElement {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconLinkPlus size={16} aria-hidden />}
        disabled={files.length === 0 || files.length > LINK_MAX_ITEMS}
        title={files.length > LINK_MAX_ITEMS ? `A link holds at most ${LINK_MAX_ITEMS} files` : undefined}
        onClick={() => {
          setOpened(true);
        }}
      >
        Create link
      </Button>
      <CreateLinkDialog
        opened={opened}
        onClose={() => {
          setOpened(false);
        }}
        files={files}
      />
    </>
  );
}
