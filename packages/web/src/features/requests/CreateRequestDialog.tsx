import { useState, type ReactElement } from 'react';
import { Checkbox, Group, Modal, NumberInput, Select, Stack, Text, Textarea } from '@mantine/core';
import { MAX_REQUEST_MESSAGE_LENGTH } from '@coffer/crypto';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { createFileRequest, type CreatedRequest } from '../../lib/links/request-create';
import { useEncryptionState } from '../../session/session-context';
import { CreatedLinkView } from '../links/CreatedLinkView';
import { LinkFormFooter } from '../links/LinkFormFooter';
import { linkQueryKeys } from '../links/link-query-keys';
import { EXPIRY_PRESETS, expiryOf, type ExpiryChoice } from '../links/link-settings';

const GB = 1024 ** 3;

/** "Request files" (issue 30): expiry, how many files and bytes, a message, signed-in only; then the link. */
export function CreateRequestDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}): ReactElement {
  return (
    <Modal opened={opened} onClose={onClose} title="Request files" centered size="lg">
      {opened && <CreateRequestForm onClose={onClose} />}
    </Modal>
  );
}

function CreateRequestForm({ onClose }: { onClose: () => void }): ReactElement {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const encryption = useEncryptionState();
  const publicKeyB64 = encryption.status === 'unlocked' ? encryption.keys.publicKeyB64 : null;
  const [expiry, setExpiry] = useState<ExpiryChoice>('7d');
  const [maxFiles, setMaxFiles] = useState<number>(10);
  const [maxGb, setMaxGb] = useState<number>(1);
  const [message, setMessage] = useState('');
  const [signedInOnly, setSignedInOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedRequest | null>(null);

  if (created !== null) {
    return (
      <CreatedLinkView
        linkId={created.requestId}
        url={created.url}
        note="Send this link to the people who should send you files. Copy it now: Coffer cannot show it again."
        onClose={onClose}
      />
    );
  }

  const create = (): void => {
    if (publicKeyB64 === null) return;
    setBusy(true);
    setError(null);
    createFileRequest(api, publicKeyB64, {
      // Presets only: a request is short-lived by nature; 'date' and 'never' are the link dialog's.
      expiresAt: expiryOf(expiry, '').expiresAt,
      maxFiles,
      maxBytes: Math.round(maxGb * GB),
      message,
      signedInOnly,
    }).then(
      (request) => {
        setCreated(request);
        void queryClient.invalidateQueries({ queryKey: linkQueryKeys.all });
      },
      (cause: unknown) => {
        setError(cause instanceof Error ? cause.message : 'The request could not be created.');
        setBusy(false);
      },
    );
  };

  return (
    <Stack gap="md">
      <Text size="sm">
        Anyone with the link can send you files, encrypted in their browser to your key. They arrive in My
        Files.
      </Text>
      <Group grow align="flex-start" wrap="wrap">
        <Select
          label="Open for"
          data={EXPIRY_PRESETS.filter((entry) => entry.value !== 'date').map(({ value, label }) => ({
            value,
            label,
          }))}
          value={expiry}
          onChange={(value) => {
            if (value !== null) setExpiry(value);
          }}
          allowDeselect={false}
          miw={140}
        />
        <NumberInput
          label="Up to files"
          min={1}
          max={10_000}
          value={maxFiles}
          onChange={(value) => {
            setMaxFiles(typeof value === 'number' ? value : 1);
          }}
          miw={120}
        />
        <NumberInput
          label="Up to GB in all"
          min={0.001}
          decimalScale={3}
          value={maxGb}
          onChange={(value) => {
            setMaxGb(typeof value === 'number' ? value : 1);
          }}
          miw={120}
        />
      </Group>
      <Textarea
        label="Message (optional)"
        description="Shown to the people who open the link; encrypted, the server cannot read it."
        value={message}
        maxLength={MAX_REQUEST_MESSAGE_LENGTH}
        autosize
        minRows={2}
        onChange={(event) => {
          setMessage(event.currentTarget.value);
        }}
      />
      <Checkbox
        label="Only people signed in to Coffer can send files"
        checked={signedInOnly}
        onChange={(event) => {
          setSignedInOnly(event.currentTarget.checked);
        }}
      />
      <LinkFormFooter
        error={error}
        busy={busy}
        disabled={publicKeyB64 === null}
        actionLabel="Create request"
        onCancel={onClose}
        onAction={create}
      />
    </Stack>
  );
}
