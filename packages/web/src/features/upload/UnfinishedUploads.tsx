import { useState, type ReactElement } from 'react';
import { formatSize, type UploadItem } from '@coffer/contracts';
import { Button, Card, FileButton, Group, Stack, Text } from '@mantine/core';
import { useEncryptionState } from '../../session/session-context';
import type { UploadRecord } from '../../lib/transfers/upload-records';
import { ageText, useUnfinishedUploads } from './use-unfinished-uploads';
import { useUploadRecords } from './use-upload-records';

/** Ours (docs/ui-strings.md): an unfinished upload this browser has no record of. */
export const RESUME_ELSEWHERE_TEXT = 'Started in another browser: it can be resumed only there.';

type PermissionHandle = FileSystemFileHandle & {
  requestPermission?: (descriptor: { mode: 'read' }) => Promise<PermissionState>;
};

/** The file behind a stored handle, after the browser's permission prompt; null when refused or gone. */
async function reopen(handle: FileSystemFileHandle): Promise<File | null> {
  try {
    const permission = await (handle as PermissionHandle).requestPermission?.({ mode: 'read' });
    if (permission !== undefined && permission !== 'granted') return null;
    return await handle.getFile();
  } catch {
    return null;
  }
}

interface UnfinishedUploadsProps {
  busy: boolean;
  /** Resumes a recorded upload with the file re-opened or picked again. */
  onResume: (file: File, record: UploadRecord) => void;
}

/**
 * The account's unfinished large uploads, each with its age, Resume (where this browser recorded it)
 * and Cancel. Hidden while an upload of this tab has not ended (running, or its cancel still aborting it on
 * the server): those are not unfinished, just under way.
 */
export function UnfinishedUploads({ busy, onResume }: UnfinishedUploadsProps): ReactElement | null {
  const { uploads, listed, cancel, cancelling } = useUnfinishedUploads(!busy);
  const encryption = useEncryptionState();
  const records = useUploadRecords(
    listed,
    encryption.status === 'unlocked' ? encryption.keys.keyVersion : null,
  );
  // Records whose stored handle could not be read (permission refused, file moved): pick the file instead.
  const [pickInstead, setPickInstead] = useState<ReadonlySet<string>>(new Set());
  if (busy || uploads.length === 0) return null;

  const resumeButton = (upload: UploadItem): ReactElement | null => {
    const record = records?.get(upload.uploadId);
    if (record === undefined) return null;
    const { handle } = record;
    if (handle !== undefined && !pickInstead.has(record.uploadId)) {
      return (
        <Button
          onClick={() => {
            void reopen(handle).then((file) => {
              if (file === null) setPickInstead((previous) => new Set(previous).add(record.uploadId));
              else onResume(file, record);
            });
          }}
        >
          Resume
        </Button>
      );
    }
    return (
      <FileButton
        onChange={(file) => {
          if (file !== null) onResume(file, record);
        }}
      >
        {(props) => (
          <Button {...props} aria-label={`Resume: pick ${record.fileName} again`}>
            Resume
          </Button>
        )}
      </FileButton>
    );
  };

  return (
    <Card withBorder padding="md" component="section" aria-label="Unfinished uploads">
      <Stack gap="xs">
        <Text fw={600}>Unfinished uploads</Text>
        <Text size="sm" c="dimmed">
          These uploads stopped before they were complete. Resume one to send the rest of the file (pick the
          same file if asked), or cancel it to free its storage and let a new large upload start.
        </Text>
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {uploads.map((upload) => (
            <Group
              key={upload.uploadId}
              component="li"
              justify="space-between"
              // Narrow screens: the buttons go under the name rather than squeezing it.
              wrap="wrap"
              aria-label={`Unfinished upload ${upload.fileName}`}
            >
              <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
                <Text truncate="end">{upload.fileName}</Text>
                <Text size="xs" c="dimmed">
                  {formatSize(upload.size)} · {upload.completedParts} of {upload.parts} parts ·{' '}
                  {ageText(upload.createdAt)}
                </Text>
                {records !== undefined && !records.has(upload.uploadId) && (
                  <Text size="xs" c="dimmed">
                    {RESUME_ELSEWHERE_TEXT}
                  </Text>
                )}
              </div>
              <Group gap="xs" wrap="nowrap">
                {resumeButton(upload)}
                <Button
                  variant="default"
                  color="red"
                  loading={cancelling === upload.uploadId}
                  onClick={() => {
                    cancel(upload.uploadId);
                  }}
                >
                  Cancel
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
