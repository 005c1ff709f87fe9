import { useRef, useState, type ReactElement } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { formatSize } from '@coffer/contracts';
import { IconDownload, IconShieldX } from '@tabler/icons-react';
import { downloadLinkFile } from '../../lib/links/link-download';
import type { OpenedLink, OpenedLinkFile } from '../../lib/links/link-open';
import { signatureBadge } from '../../lib/trust/signed-files';
import { TransferAbortedError } from '../../lib/transfers/transfer-errors';
import { StateCallout } from '../../ui/StateCallout';
import { DownloadProgress } from '../files/DownloadProgress';

type RowState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly percent: number; readonly text: string }
  | { readonly kind: 'done' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly text: string };

/** One file of a link: its decrypted name and size, the owner's signature, and its download. */
export function LinkFileRow({ link, file }: { link: OpenedLink; file: OpenedLinkFile }): ReactElement {
  const [state, setState] = useState<RowState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const badge = signatureBadge(file.manifest, link.ownerEmail);

  const start = (): void => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'running', percent: 0, text: 'Starting download...' });
    downloadLinkFile(link, file, abort.signal, ({ percent, text }) => {
      setState({ kind: 'running', percent, text });
    }).then(
      () => {
        setState({ kind: 'done' });
      },
      (error: unknown) => {
        setState(
          error instanceof TransferAbortedError
            ? { kind: 'cancelled' }
            : { kind: 'failed', text: error instanceof Error ? error.message : 'The download failed.' },
        );
      },
    );
  };

  return (
    <Paper withBorder radius="md" p="md" data-link-file={file.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} truncate="end" title={file.name}>
              {file.name}
            </Text>
            <Text size="sm" c="dimmed">
              {formatSize(file.size)}
            </Text>
          </Stack>
          {state.kind !== 'running' && badge.canOpen && (
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={start}
              aria-label={`Download ${file.name}`}
              style={{ flexShrink: 0 }}
            >
              Download
            </Button>
          )}
        </Group>
        {badge.canOpen ? (
          <Text
            size="sm"
            c={badge.tone === 'verified' ? 'teal' : 'dimmed'}
            data-link-file-signature={badge.tone}
          >
            {badge.text}
          </Text>
        ) : (
          // As a share that does not check out: refused, with why, and nothing to download.
          <StateCallout
            size="sm"
            look={{ label: 'Coffer refused to open this file', color: 'red', icon: IconShieldX }}
            reason={badge.text}
          />
        )}
        {state.kind === 'running' && (
          <DownloadProgress
            item={{ fileName: file.name, statusText: state.text, progress: state.percent }}
            onCancel={() => controller.current?.abort()}
          />
        )}
        {state.kind === 'done' && (
          <Text size="sm" c="teal" data-download-state="complete">
            Downloaded
          </Text>
        )}
        {state.kind === 'cancelled' && (
          <Text size="sm" c="dimmed" data-download-state="aborted">
            Download cancelled
          </Text>
        )}
        {state.kind === 'failed' && (
          <Text size="sm" c="red" role="alert" data-download-state="failed">
            {state.text}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
