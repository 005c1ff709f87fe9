import { memo, type ReactElement } from 'react';
import { MAX_FILE_SIZE, MAX_FILES_PER_DROP, uploadMessages } from '@coffer/contracts';
import { Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconCloudUpload, IconLock, IconUpload, IconX } from '@tabler/icons-react';
import { snackbar } from '../../lib/snackbar';

/** The drop-zone rejection texts (spec section 8), by react-dropzone's error code. */
export function rejectionMessage(code: string, fallback: string): string {
  switch (code) {
    case 'file-too-large':
      return uploadMessages.fileTooBig;
    case 'file-invalid-type':
      return uploadMessages.invalidFileType;
    case 'too-many-files':
      return uploadMessages.tooManyFiles;
    default:
      return fallback;
  }
}

function showRejections(rejections: readonly FileRejection[]): void {
  const messages = new Set(
    rejections.flatMap((rejection) =>
      rejection.errors.map((error) => rejectionMessage(error.code, error.message)),
    ),
  );
  for (const message of messages) snackbar.warning(message);
}

interface UploadDropzoneProps {
  onFiles: (files: File[]) => void;
  /** An upload runs: disabled, 'Upload in progress. Please wait...'. */
  busy: boolean;
  /** The list holds the most files it may: 'You can not upload any more files.' */
  full: boolean;
}

/** The drop zone of New Upload (spec section 2); memoized, as its props do not change while a transfer moves. */
export const UploadDropzone = memo(function UploadDropzone({
  onFiles,
  busy,
  full,
}: UploadDropzoneProps): ReactElement {
  const disabled = busy || full;
  const text = busy
    ? uploadMessages.dropZoneBusy
    : full
      ? uploadMessages.tooManyFiles
      : uploadMessages.dropZone;
  return (
    <Dropzone
      onDrop={onFiles}
      onReject={showRejections}
      disabled={disabled}
      maxSize={MAX_FILE_SIZE}
      multiple
      radius="lg"
      aria-label={text}
      aria-disabled={disabled}
      data-busy={busy || undefined}
      style={disabled ? { cursor: 'not-allowed', opacity: 0.65 } : undefined}
    >
      <Group justify="center" gap="xl" mih={170} wrap="nowrap" style={{ pointerEvents: 'none' }}>
        <Dropzone.Accept>
          <IconUpload size={48} color="var(--mantine-color-coffer-6)" stroke={1.5} aria-hidden />
        </Dropzone.Accept>
        <Dropzone.Reject>
          <IconX size={48} color="var(--mantine-color-red-6)" stroke={1.5} aria-hidden />
        </Dropzone.Reject>
        <Dropzone.Idle>
          <IconCloudUpload size={48} color="var(--mantine-color-dimmed)" stroke={1.5} aria-hidden />
        </Dropzone.Idle>
        <Stack gap={4} maw={420}>
          <Text size="lg" fw={600} data-testid="dropzone-text">
            {text}
          </Text>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconLock
              size={16}
              color="var(--mantine-color-dimmed)"
              style={{ flexShrink: 0, marginTop: 2 }}
              aria-hidden
            />
            <Text size="sm" c="dimmed">
              Up to {MAX_FILES_PER_DROP} files at a time. Each is encrypted in your browser before it leaves
              your device.
            </Text>
          </Group>
        </Stack>
      </Group>
    </Dropzone>
  );
});
