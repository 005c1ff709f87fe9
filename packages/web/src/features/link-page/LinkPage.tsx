import { useState, type ReactElement, type SyntheticEvent } from 'react';
import { Button, Group, Loader, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { formatDateTime } from '@coffer/contracts';
import { IconFileZip, IconLinkOff, IconLock, IconShieldX } from '@tabler/icons-react';
import { useLocation, useParams } from 'react-router';
import { PublicPage } from '../../ui/PublicPage';
import { useZipRun } from '../../ui/use-zip-run';
import { linkZipFiles } from '../../lib/links/link-download';
import { ZipProgressCard } from '../folders/ZipProgressCard';
import type { LinkFailure, OpenedLink } from '../../lib/links/link-open';
import { signatureBadge } from '../../lib/trust/signed-files';
import { LinkFileRow } from './LinkFileRow';
import { linkFailureTexts } from './link-page-texts';
import { useLinkPage } from './use-link-page';

/**
 * `/l/{linkId}#<secret>`: the recipient's page of a share link (issue 30), no sign-in. The secret
 * stays in the fragment (never sent; the app's Referrer-Policy is no-referrer); the files' names
 * and sizes are decrypted here, and each downloads through the signed-in downloads' pipeline.
 */
export function LinkPage(): ReactElement {
  const { id = '' } = useParams();
  const { hash } = useLocation();
  const { state, submitPassword, retry } = useLinkPage(id, hash);

  return (
    <PublicPage>
      <Stack w="100%" maw={640} gap="lg" data-link-phase={state.phase}>
        {(state.phase === 'starting' || state.phase === 'opening') && (
          <Stack align="center" gap="sm" py="xl">
            <Loader aria-label="Opening the link" />
            <Text c="dimmed">Opening the link…</Text>
          </Stack>
        )}
        {state.phase === 'password' && (
          <PasswordForm wrong={state.wrong} busy={state.busy} onSubmit={submitPassword} />
        )}
        {state.phase === 'failed' && <LinkRefusal failure={state.failure} onRetry={retry} />}
        {state.phase === 'open' && <OpenLinkView link={state.link} />}
      </Stack>
    </PublicPage>
  );
}

function PasswordForm({
  wrong,
  busy,
  onSubmit,
}: {
  wrong: boolean;
  busy: boolean;
  onSubmit: (password: string) => void;
}): ReactElement {
  const [password, setPassword] = useState('');
  const submit = (event: SyntheticEvent): void => {
    event.preventDefault();
    if (password !== '') onSubmit(password);
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={1} size="h2">
            <IconLock size={24} aria-hidden /> This link has a password
          </Title>
          <Text c="dimmed">Enter the password the sender gave you. It never leaves this browser.</Text>
        </Stack>
        <PasswordInput
          label="Password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
          }}
          error={wrong ? linkFailureTexts['wrong-password'].reason : undefined}
          autoComplete="off"
          data-autofocus
          autoFocus
        />
        <Button type="submit" loading={busy} disabled={password === ''}>
          Open
        </Button>
      </Stack>
    </form>
  );
}

/**
 * A link or request page that cannot show anything: one heading (the state) with its icon, the
 * reason, and Try again where trying again can help. Never an error dump.
 */
export function LinkRefusal({
  failure,
  onRetry,
}: {
  failure: LinkFailure;
  onRetry: () => void;
}): ReactElement {
  const { title, reason } = linkFailureTexts[failure];
  const retryable = failure === 'failed' || failure === 'rate-limited';
  const danger = failure === 'tampered' || failure === 'key-mismatch' || failure === 'signer-mismatch';
  const Icon = danger ? IconShieldX : IconLinkOff;
  return (
    <Stack gap="md" align="flex-start" data-link-failure={failure} role="alert">
      <Group gap="sm" wrap="nowrap" align="center">
        <ThemeIcon size={40} radius="xl" variant="light" color={danger ? 'red' : 'gray'}>
          <Icon size={22} aria-hidden />
        </ThemeIcon>
        <Title order={1} size="h2">
          {title}
        </Title>
      </Group>
      <Text>{reason}</Text>
      {retryable && (
        <Button variant="light" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Stack>
  );
}

function OpenLinkView({ link }: { link: OpenedLink }): ReactElement {
  const signer = signerLine(link);
  const count = link.files.length;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {count === 1 ? 'A file was shared with you' : `${count} files were shared with you`}
        </Title>
        <Text c="dimmed">From {link.ownerEmail}. Encrypted end to end: decrypted here, in your browser.</Text>
        <Text size="sm" c="dimmed">
          {link.expiresAt === null ? 'Does not expire' : `Available until ${formatDateTime(link.expiresAt)}`}
          {' · '}
          {link.downloadsLeft === null
            ? 'No download limit'
            : `${link.downloadsLeft} download${link.downloadsLeft === 1 ? '' : 's'} left`}
        </Text>
        <Text size="sm" c={signer.color} data-link-signer={signer.state}>
          {signer.text}
        </Text>
      </Stack>
      {count > 1 && <DownloadAll link={link} />}
      {link.files.map((file) => (
        <LinkFileRow key={file.fileId} link={link} file={file} />
      ))}
    </Stack>
  );
}

/**
 * Who signed the link, as far as the page can tell. A pinned link got here only with the pinned key
 * and a valid record; a link from before the pin is checked with the key the server serves, which
 * the page says ("not pinned").
 */
function signerLine(link: OpenedLink): { state: string; text: string; color: string } {
  const record = signatureBadge(link.record, link.ownerEmail);
  if (link.signerPinned)
    return {
      state: 'pinned',
      text: `Link signed by ${link.ownerEmail}, whose key this link names`,
      color: 'teal',
    };
  if (record.tone === 'verified')
    return {
      state: 'not-pinned',
      text: `Signature not pinned: signed by ${link.ownerEmail} with the key the server gave (an older link names no key)`,
      color: 'dimmed',
    };
  return { state: record.tone, text: record.text, color: record.tone === 'unsigned' ? 'dimmed' : 'red' };
}

/** The archive's name: what a recipient's downloads show for "Download all". */
const LINK_ZIP_NAME = 'Shared files.zip';

/**
 * "Download all as ZIP": every file the page can open, as one streaming archive through the same
 * verifying pipeline, counted as one download of the link (one download session).
 */
function DownloadAll({ link }: { link: OpenedLink }): ReactElement {
  const { running, run } = useZipRun();
  const openable = link.files.filter((file) => signatureBadge(file.manifest, link.ownerEmail).canOpen);
  if (running !== null) return <ZipProgressCard zip={running} />;
  return (
    <Group justify="flex-end">
      <Button
        leftSection={<IconFileZip size={18} aria-hidden />}
        disabled={openable.length === 0}
        onClick={() => {
          run({ name: LINK_ZIP_NAME, files: linkZipFiles(link, openable), api: link.client });
        }}
      >
        Download all as ZIP
      </Button>
    </Group>
  );
}
