import { useState, type ReactElement } from 'react';
import { Button, Checkbox, Divider, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { keysApi } from '../../lib/api/endpoints';
import { folderSharesApi, shareFolder, type DriveFolder } from '../../lib/drive';
import { snackbar } from '../../lib/snackbar';
import { useAppSession } from '../../session/session-context';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useShareContacts } from '../share/use-share-contacts';
import type { MyFolders } from './use-my-folders';

/** Query key of a folder's share list. */
export const folderSharesKey = (nodeId: string) => ['folder-shares', nodeId] as const;

/**
 * Share a folder with contacts (issue 31) and revoke: the contact picker (contacts with a key),
 * each recipient's served key checked against my pins as a file share checks it, then the folder
 * key wrapped to them with my signed folder grant; below, who has it, each with Revoke (the whole
 * tree).
 */
export function ShareFolderDialog({
  folder,
  drive,
  onClose,
}: {
  folder: DriveFolder | null;
  drive: MyFolders;
  onClose: () => void;
}): ReactElement {
  const api = useApiClient();
  const { trust } = useAppSession();
  const queryClient = useQueryClient();
  const opened = folder !== null;
  const { contacts, query } = useShareContacts(opened);
  const shares = useQuery({
    queryKey: folderSharesKey(folder?.nodeId ?? ''),
    queryFn: () => folderSharesApi.of(api, folder?.nodeId ?? ''),
    enabled: opened,
  });
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [revokePending, setRevokePending] = useState(false);
  const sharedWith = new Set((shares.data ?? []).map((share) => share.email.toLowerCase()));
  const offered = contacts.filter((contact) => !sharedWith.has(contact.email.toLowerCase()));

  const close = (): void => {
    setChosen(new Set());
    onClose();
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: folderSharesKey(folder?.nodeId ?? '') });

  const share = async (): Promise<void> => {
    if (folder === null) return;
    const signer = drive.signer;
    const parent = drive.parentFor(folder.parentNodeId);
    if (signer === null || parent === null) {
      snackbar.danger('Unlock encryption to share a folder');
      return;
    }
    setPending(true);
    for (const email of chosen) {
      const found = contacts.find((contact) => contact.email === email)?.name;
      const name = found === undefined || found === '' ? email : found;
      try {
        const served = await keysApi.publicKeyOf(api, email);
        const check = await trust.checkContact(email, served);
        if (!check.canShare) throw new Error(check.reason ?? `Cannot share with ${name}.`);
        await shareFolder(
          api,
          folder,
          parent.key,
          { email, publicKeyB64: served.publicKey, keyId: served.keyId },
          signer,
        );
        snackbar.success(`Folder ${folder.name} shared with ${name}`);
      } catch (error) {
        snackbar.danger(
          `Could not share ${folder.name} with ${name}${error instanceof Error ? `: ${error.message}` : ''}`,
        );
      }
    }
    setPending(false);
    setChosen(new Set());
    await refresh();
  };

  return (
    <>
      <Modal
        opened={opened}
        onClose={pending ? () => undefined : close}
        title={`Share ${folder?.name ?? ''}`}
        centered
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            They see this folder and everything in it, including files added later, until you revoke it.
          </Text>
          {query.isPending ? (
            <Loader size="sm" aria-label="Loading contacts" />
          ) : offered.length === 0 ? (
            <Text size="sm">No other contacts to share with.</Text>
          ) : (
            <Stack gap={6} role="group" aria-label="Contacts">
              {offered.map((contact) => (
                <Checkbox
                  key={contact.email}
                  label={contact.name === '' ? contact.email : `${contact.name} (${contact.email})`}
                  disabled={contact.publicKey === null || pending}
                  description={contact.publicKey === null ? 'No encryption key yet' : undefined}
                  checked={chosen.has(contact.email)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if (event.currentTarget.checked) next.add(contact.email);
                    else next.delete(contact.email);
                    setChosen(next);
                  }}
                />
              ))}
            </Stack>
          )}
          <DialogActions cancelLabel="Close" onCancel={close} pending={pending}>
            <Button
              loading={pending}
              disabled={chosen.size === 0}
              onClick={() => {
                void share();
              }}
            >
              Share
            </Button>
          </DialogActions>
          <Divider label="Shared with" labelPosition="left" />
          {shares.data === undefined ? (
            <Loader size="xs" aria-label="Loading shares" />
          ) : shares.data.length === 0 ? (
            <Text size="sm" c="dimmed">
              Only you
            </Text>
          ) : (
            <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Shared with">
              {shares.data.map((share) => (
                <Group key={share.email} component="li" justify="space-between" gap="sm" wrap="nowrap">
                  <Text size="sm" truncate="end">
                    {share.name === '' ? share.email : `${share.name} (${share.email})`}
                  </Text>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => {
                      setRevoking(share.email);
                    }}
                  >
                    Revoke
                  </Button>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
      </Modal>
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke access?"
        confirmLabel="Revoke"
        pending={revokePending}
        onClose={() => {
          setRevoking(null);
        }}
        onConfirm={() => {
          if (folder === null || revoking === null) return;
          setRevokePending(true);
          void folderSharesApi
            .revoke(api, folder.nodeId, revoking)
            .then(
              () => {
                snackbar.success(`Access to ${folder.name} revoked for ${revoking}`);
              },
              () => {
                snackbar.danger(`Failed to revoke access for ${revoking}`);
              },
            )
            .finally(() => {
              setRevokePending(false);
              setRevoking(null);
              void refresh();
            });
        }}
      >
        <Text>
          {revoking} will no longer see “{folder?.name}” or anything in it. What they already downloaded stays
          with them.
        </Text>
      </ConfirmDialog>
    </>
  );
}
