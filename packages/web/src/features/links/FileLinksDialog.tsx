import { useState, type ReactElement } from 'react';
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconLinkPlus } from '@tabler/icons-react';
import type { LinkFile } from '../../lib/links/link-create';
import { CreateLinkDialog } from './CreateLinkDialog';
import { LinkCard } from './LinkCard';
import { useLinks } from './use-links';

/**
 * A file's links panel (issue 30), from its card: the links that grant it, with revoke, and
 * "Create link". Creating opens its own dialog over this one.
 */
export function FileLinksDialog({
  file,
  onClose,
}: {
  /** The file whose links are shown; null: closed. */
  file: LinkFile | null;
  onClose: () => void;
}): ReactElement {
  const [creating, setCreating] = useState(false);
  return (
    <>
      <Modal
        opened={file !== null && !creating}
        onClose={onClose}
        title={file === null ? 'Links' : `Links to ${file.name}`}
        centered
        size="lg"
      >
        {file !== null && (
          <FileLinks
            file={file}
            onCreate={() => {
              setCreating(true);
            }}
          />
        )}
      </Modal>
      <CreateLinkDialog
        opened={file !== null && creating}
        onClose={() => {
          setCreating(false);
        }}
        files={file === null ? [] : [file]}
      />
    </>
  );
}

function FileLinks({ file, onCreate }: { file: LinkFile; onCreate: () => void }): ReactElement {
  const links = useLinks(file.fileId);
  const names = new Map([[file.fileId, file.name]]);
  return (
    <Stack gap="md">
      {links.isPending && <Loader aria-label="Loading links" />}
      {links.isError && (
        <Text size="sm" c="red" role="alert">
          The links could not be loaded.
        </Text>
      )}
      {links.data?.links.length === 0 && (
        <Text size="sm" c="dimmed">
          No links to this file yet. A link lets someone without an account download it.
        </Text>
      )}
      {links.data?.links.map((link) => (
        <LinkCard key={link.linkId} link={link} fileNames={names} />
      ))}
      <Group justify="flex-end">
        <Button leftSection={<IconLinkPlus size={16} aria-hidden />} onClick={onCreate}>
          Create link
        </Button>
      </Group>
    </Stack>
  );
}
