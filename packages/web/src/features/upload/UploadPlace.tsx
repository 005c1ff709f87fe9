import type { ReactElement } from 'react';
import { Alert, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { folderPath } from '../../lib/drive';
import { LinkButton } from '../../ui/LinkButton';
import { folderHref } from '../folders/folder-href';
import { useMyFolders } from '../folders/use-my-folders';
import { FOLDER_NOT_OPENED } from './use-upload-list';

/**
 * Where New Upload puts files reached from a folder of My Files (/new?folder=<nodeId>): the folder's
 * path, and the way back to it.
 */
export function UploadPlace({ target }: { target: string }): ReactElement {
  const drive = useMyFolders();
  const path = folderPath(drive.folders, target);
  const back = (
    <LinkButton to={folderHref(path.length === 0 ? null : target)} icon={IconArrowLeft} variant="default">
      Back to My Files
    </LinkButton>
  );
  if (!drive.isPending && drive.parentFor(target) === null)
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />}>
        <Group justify="space-between" gap="sm">
          <Text size="sm">{FOLDER_NOT_OPENED}</Text>
          {back}
        </Group>
      </Alert>
    );
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text data-testid="upload-place" style={{ overflowWrap: 'anywhere' }}>
        {drive.isPending ? (
          'Opening the folder…'
        ) : (
          <>
            Uploading into{' '}
            <Text span fw={600}>
              {['My Files', ...path.map((folder) => folder.name)].join(' › ')}
            </Text>
          </>
        )}
      </Text>
      {back}
    </Group>
  );
}
