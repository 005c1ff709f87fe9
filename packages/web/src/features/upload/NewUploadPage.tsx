import type { ReactElement } from 'react';
import { MAX_FILES_PER_DROP, uploadMessages } from '@coffer/contracts';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconUpload } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { FolderUpload } from './FolderUpload';
import { RecentUploads } from './RecentUploads';
import { UnfinishedUploads } from './UnfinishedUploads';
import { UploadDropzone } from './UploadDropzone';
import { UploadRow } from './UploadRow';
import { UploadPlace } from './UploadPlace';
import { useUploadList } from './use-upload-list';
import { FOLDER_PARAM } from '../folders/folder-href';

/** New Upload (/new): drop files, then Upload Files encrypts and uploads them with progress and cancel. */
export function NewUploadPage(): ReactElement {
  // Issue 31: /new?folder=<nodeId> uploads into that folder (files, and a folder upload's tree).
  const [params] = useSearchParams();
  const target = params.get(FOLDER_PARAM);
  const list = useUploadList(target);
  const waiting = list.entries.filter((entry) => entry.transferId === null).length;
  const full = list.entries.length >= MAX_FILES_PER_DROP;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>New Upload</Title>
        <Text c="dimmed">Files are encrypted on this device; Coffer only ever stores ciphertext.</Text>
      </div>

      {target !== null && <UploadPlace target={target} />}

      {!list.ready && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />}>
          {uploadMessages.encryptionNotInitializedBanner}
        </Alert>
      )}

      <FolderUpload target={target}>
        <UploadDropzone onFiles={list.add} busy={list.busy} full={full && !list.busy} />
      </FolderUpload>

      {list.ready && <UnfinishedUploads busy={list.underWay} onResume={list.resume} />}

      {list.entries.length > 0 && (
        <Stack gap="sm">
          <Group justify="space-between" gap="sm">
            <Text fw={600}>
              {list.entries.length} {list.entries.length === 1 ? 'file' : 'files'}
            </Text>
            <Group gap="sm">
              {list.busy && (
                <Button variant="default" color="red" onClick={list.cancelAll}>
                  Cancel all
                </Button>
              )}
              <Button
                leftSection={<IconUpload size={18} aria-hidden />}
                onClick={list.start}
                disabled={!list.ready || !list.placeOpen || list.busy || waiting === 0}
              >
                {uploadMessages.uploadFilesButton}
              </Button>
            </Group>
          </Group>
          <Stack
            gap="xs"
            component="ul"
            aria-label="Files to upload"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
          >
            {list.entries.map((entry) => (
              <UploadRow
                key={entry.key}
                entry={entry}
                transfer={list.transferOf(entry)}
                onCancel={() => {
                  list.cancel(entry);
                }}
              />
            ))}
          </Stack>
        </Stack>
      )}

      {list.ready && <RecentUploads />}
    </Stack>
  );
}
