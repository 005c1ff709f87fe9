import { useState, type ReactElement } from 'react';
import { Modal, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { changeLinkSettings } from '../../lib/links/link-change';
import { snackbar } from '../../lib/snackbar';
import { linkQueryKeys } from './link-query-keys';
import { choicesOf, expiryOf, maxDownloadsOf } from './link-settings';
import { LinkFormFooter, SigningKeyNeeded } from './LinkFormFooter';
import { LinkSettingsFields, type LinkSettingsValue } from './LinkSettingsFields';
import { useLinkOwnerKeys } from './use-link-owner-keys';
import type { LinkView } from './use-links';

/** "Change expiry and limit" of one of my links: the record is signed again with the new settings. */
export function ChangeLinkDialog({
  link,
  opened,
  onClose,
}: {
  link: LinkView;
  opened: boolean;
  onClose: () => void;
}): ReactElement {
  return (
    <Modal opened={opened} onClose={onClose} title="Change expiry and limit" centered>
      {opened && <ChangeLinkForm link={link} onClose={onClose} />}
    </Modal>
  );
}

function ChangeLinkForm({ link, onClose }: { link: LinkView; onClose: () => void }): ReactElement {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const keys = useLinkOwnerKeys();
  const [settings, setSettings] = useState<LinkSettingsValue>(() =>
    choicesOf(link.expiresAt, link.maxDownloads),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { expiresAt, error: dateError } = expiryOf(settings.expiry, settings.date);

  const save = (): void => {
    if (keys === null || dateError !== null) return;
    setBusy(true);
    setError(null);
    changeLinkSettings(api, keys, link, { expiresAt, maxDownloads: maxDownloadsOf(settings.limit) }).then(
      async () => {
        snackbar.success('Link changed');
        await queryClient.invalidateQueries({ queryKey: linkQueryKeys.all });
        onClose();
      },
      (cause: unknown) => {
        setError(cause instanceof Error ? cause.message : 'The link could not be changed.');
        setBusy(false);
      },
    );
  };

  return (
    <Stack gap="md">
      {keys === null && <SigningKeyNeeded />}
      <LinkSettingsFields value={settings} onChange={setSettings} dateError={dateError} />
      <LinkFormFooter
        error={error}
        busy={busy}
        disabled={keys === null || dateError !== null}
        actionLabel="Save"
        onCancel={onClose}
        onAction={save}
      />
    </Stack>
  );
}
