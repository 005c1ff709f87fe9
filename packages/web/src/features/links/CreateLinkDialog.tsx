import { useState, type ReactElement } from 'react';
import { Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { MAX_LINK_LABEL_LENGTH } from '@coffer/crypto';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { createShareLink, type CreatedLink, type LinkFile } from '../../lib/links/link-create';
import { CreatedLinkView } from './CreatedLinkView';
import { linkQueryKeys } from './link-query-keys';
import { expiryOf, maxDownloadsOf } from './link-settings';
import { LinkFormFooter, SigningKeyNeeded } from './LinkFormFooter';
import { LinkSettingsFields, type LinkSettingsValue } from './LinkSettingsFields';
import { useLinkOwnerKeys } from './use-link-owner-keys';

interface CreateLinkDialogProps {
  opened: boolean;
  onClose: () => void;
  files: readonly LinkFile[];
}

/**
 * "Create link" (issue 30): expiry, download limit, optional password and label; then the link to
 * copy. The link's secret is in its fragment only: Coffer shows it here, once, and keeps no copy.
 */
export function CreateLinkDialog({ opened, onClose, files }: CreateLinkDialogProps): ReactElement {
  return (
    <Modal opened={opened} onClose={onClose} title="Create a link" centered size="lg">
      {/* A fresh form each time the dialog opens: the last link's secret does not linger. */}
      {opened && <CreateLinkForm files={files} onClose={onClose} />}
    </Modal>
  );
}

function CreateLinkForm({
  files,
  onClose,
}: {
  files: readonly LinkFile[];
  onClose: () => void;
}): ReactElement {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const keys = useLinkOwnerKeys();
  const [settings, setSettings] = useState<LinkSettingsValue>({
    expiry: '7d',
    date: '',
    limit: 'unlimited',
  });
  const [password, setPassword] = useState('');
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedLink | null>(null);
  const { expiresAt, error: dateError } = expiryOf(settings.expiry, settings.date);

  if (created !== null) {
    return (
      <CreatedLinkView
        linkId={created.linkId}
        url={created.url}
        note="Copy the link now. Coffer cannot show it again: the key in it is not stored anywhere."
        onClose={onClose}
      />
    );
  }

  const create = (): void => {
    if (keys === null || dateError !== null) return;
    setBusy(true);
    setError(null);
    createShareLink(api, keys, files, {
      expiresAt,
      maxDownloads: maxDownloadsOf(settings.limit),
      password,
      label,
    }).then(
      (link) => {
        setCreated(link);
        void queryClient.invalidateQueries({ queryKey: linkQueryKeys.all });
      },
      (cause: unknown) => {
        setError(cause instanceof Error ? cause.message : 'The link could not be created.');
        setBusy(false);
      },
    );
  };

  const what = files.length === 1 ? (files[0]?.name ?? '') : `${files.length} files`;
  return (
    <Stack gap="md">
      <Text size="sm">
        Anyone with the link can download <strong>{what}</strong>, decrypted in their browser. The key is in
        the link itself: Coffer's server never sees it.
      </Text>
      {keys === null && <SigningKeyNeeded />}
      <LinkSettingsFields value={settings} onChange={setSettings} dateError={dateError} />
      <PasswordInput
        label="Password (optional)"
        description="The person you send the link to will also need this password. Send it another way."
        value={password}
        onChange={(event) => {
          setPassword(event.currentTarget.value);
        }}
        autoComplete="new-password"
      />
      <TextInput
        label="Label (optional)"
        description="Only you see it, in your list of links."
        value={label}
        maxLength={MAX_LINK_LABEL_LENGTH}
        onChange={(event) => {
          setLabel(event.currentTarget.value);
        }}
      />
      <LinkFormFooter
        error={error}
        busy={busy}
        disabled={keys === null || dateError !== null}
        actionLabel="Create link"
        onCancel={onClose}
        onAction={create}
      />
    </Stack>
  );
}
