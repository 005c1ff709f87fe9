import { useEffect, useState, type ReactElement } from 'react';
import {
  Button,
  CloseButton,
  Group,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  Textarea,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { formatDateTime, formatSize } from '@coffer/contracts';
import { IconCloudUpload, IconLogin, IconSend, IconUserCheck } from '@tabler/icons-react';
import { useLocation, useParams } from 'react-router';
import { linkFailureOf, type LinkFailure } from '../../lib/links/link-open';
import { openRequest, type OpenedRequest } from '../../lib/links/request-open';
import { useAppSession } from '../../session/session-context';
import { PublicPage } from '../../ui/PublicPage';
import { LinkRefusal } from '../link-page/LinkPage';
import { useRequestUploads, type RequestUploadRow } from './use-request-uploads';

type PageState =
  | { readonly phase: 'opening' }
  | { readonly phase: 'open'; readonly request: OpenedRequest }
  | { readonly phase: 'failed'; readonly failure: LinkFailure };

/**
 * `/r/{requestId}#<secret>.<owner key fingerprint>` (issue 30): anyone with the link sends files to
 * its owner, no sign-in. The owner's key is checked against the fingerprint before anything is
 * encrypted to it; every file (and the note) is encrypted here, to that key.
 */
export function RequestPage(): ReactElement {
  const { id = '' } = useParams();
  const { pathname, hash } = useLocation();
  const { auth } = useAppSession();
  const [state, setState] = useState<PageState>({ phase: 'opening' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ phase: 'opening' });
    // A signed-in visitor's sign-in goes with a signed-in-only request's calls (the server records
    // who sent each file); the session's settings load first so the token can be read.
    auth
      .ready()
      .catch(() => undefined)
      .then(() => openRequest(id, hash, { getAccessToken: () => auth.getAccessToken().catch(() => null) }))
      .then(
        (request) => {
          if (live) setState({ phase: 'open', request });
        },
        (error: unknown) => {
          if (live) setState({ phase: 'failed', failure: linkFailureOf(error).failure });
        },
      );
    return () => {
      live = false;
    };
  }, [auth, id, hash, attempt]);

  return (
    <PublicPage>
      <Stack w="100%" maw={640} gap="lg" data-request-phase={state.phase}>
        {state.phase === 'opening' && (
          <Stack align="center" gap="sm" py="xl">
            <Loader aria-label="Opening the request" />
            <Text c="dimmed">Opening the request…</Text>
          </Stack>
        )}
        {state.phase === 'failed' && (
          <LinkRefusal
            failure={state.failure}
            onRetry={() => {
              setAttempt((n) => n + 1);
            }}
          />
        )}
        {state.phase === 'open' &&
          (state.request.info.signedInOnly && !state.request.signedIn ? (
            <SignInNeeded
              ownerEmail={state.request.info.ownerEmail}
              onSignIn={() => {
                // Back to this request (its fragment included) once signed in and unlocked.
                void auth.signIn(`${pathname}${hash}`);
              }}
            />
          ) : (
            <RequestForm request={state.request} />
          ))}
      </Stack>
    </PublicPage>
  );
}

/** A signed-in-only request opened by a visitor who is not signed in: what to do, and the way back. */
function SignInNeeded({ ownerEmail, onSignIn }: { ownerEmail: string; onSignIn: () => void }): ReactElement {
  return (
    <Stack gap="md" align="flex-start" data-request-sign-in>
      <Group gap="sm" wrap="nowrap" align="center">
        <ThemeIcon size={40} radius="xl" variant="light" color="blue">
          <IconLogin size={22} aria-hidden />
        </ThemeIcon>
        <Title order={1} size="h2">
          Sign in to send files
        </Title>
      </Group>
      <Text>
        {ownerEmail} takes files through this link from signed-in people only, so they know who sent each one.
        Sign in to your Coffer account: you come back to this page to send your files.
      </Text>
      <Button leftSection={<IconLogin size={16} aria-hidden />} onClick={onSignIn}>
        Sign in
      </Button>
    </Stack>
  );
}

function RequestForm({ request }: { request: OpenedRequest }): ReactElement {
  const { rows, sending, add, cancel, send } = useRequestUploads(request);
  const [note, setNote] = useState('');
  const { info } = request;
  const waiting = rows.some((row) => row.status === 'waiting');
  const allSent =
    rows.length > 0 && rows.every((row) => row.status !== 'waiting' && row.status !== 'running');
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Send files to {info.ownerEmail}
        </Title>
        <Text c="dimmed">
          Encrypted in your browser to {info.ownerEmail}’s key before they leave your device. Only they can
          open them.
        </Text>
        {request.signedIn && (
          <Group gap={6} wrap="nowrap" data-request-signed-in>
            <IconUserCheck size={16} aria-hidden />
            <Text size="sm">Signed in: {info.ownerEmail} will see that these files come from you.</Text>
          </Group>
        )}
        <Text size="sm" c="dimmed">
          Up to {info.filesLeft} more file{info.filesLeft === 1 ? '' : 's'}, {formatSize(info.bytesLeft)} in
          all
          {info.expiresAt === null ? '' : ` · open until ${formatDateTime(info.expiresAt)}`}
        </Text>
      </Stack>
      {request.message !== null && (
        <Paper withBorder radius="md" p="md" data-request-message>
          <Text size="sm" fw={600}>
            Message from {info.ownerEmail}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {request.message}
          </Text>
        </Paper>
      )}
      <Dropzone
        onDrop={add}
        disabled={sending}
        multiple
        radius="lg"
        aria-label="Drop files here or click to choose"
      >
        <Group justify="center" gap="md" mih={120} style={{ pointerEvents: 'none' }}>
          <IconCloudUpload size={40} color="var(--mantine-color-dimmed)" stroke={1.5} aria-hidden />
          <Text fw={600}>Drop files here or click to choose</Text>
        </Group>
      </Dropzone>
      {rows.map((row) => (
        <UploadRow
          key={row.id}
          row={row}
          onCancel={() => {
            cancel(row.id);
          }}
        />
      ))}
      <Textarea
        label="Note (optional)"
        description="Sent with the files, encrypted the same way."
        value={note}
        autosize
        minRows={2}
        disabled={sending}
        onChange={(event) => {
          setNote(event.currentTarget.value);
        }}
      />
      <Group justify="flex-end">
        <Button
          leftSection={<IconSend size={16} aria-hidden />}
          loading={sending}
          disabled={!waiting}
          onClick={() => {
            void send(note).then(() => {
              setNote('');
            });
          }}
        >
          Send
        </Button>
      </Group>
      {allSent && !sending && (
        <Text size="sm" c="teal" role="status">
          Done. {info.ownerEmail} will find what arrived in their Coffer.
        </Text>
      )}
    </Stack>
  );
}

function UploadRow({ row, onCancel }: { row: RequestUploadRow; onCancel: () => void }): ReactElement {
  const active = row.status === 'waiting' || row.status === 'running';
  return (
    <Paper withBorder radius="md" p="sm" data-request-upload={row.file.name} data-upload-state={row.status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" fw={600} truncate="end">
            {row.file.name}
          </Text>
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c={row.status === 'failed' ? 'red' : 'dimmed'}>
              {formatSize(row.file.size)} · {row.text}
            </Text>
            {active && <CloseButton size="sm" aria-label={`Cancel ${row.file.name}`} onClick={onCancel} />}
          </Group>
        </Group>
        {row.status === 'running' && (
          <Progress
            aria-label={`Upload of ${row.file.name}`}
            value={row.percent}
            size="sm"
            transitionDuration={0}
          />
        )}
      </Stack>
    </Paper>
  );
}
