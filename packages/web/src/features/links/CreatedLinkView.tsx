import type { ReactElement } from 'react';
import { Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A new link or request's URL with Copy: shown once, while the dialog that made it is open. */
export function CreatedLinkView({
  linkId,
  url,
  note,
  onClose,
}: {
  linkId: string;
  url: string;
  note: string;
  onClose: () => void;
}): ReactElement {
  return (
    <Stack gap="md" data-created-link={linkId}>
      <Text size="sm">{note}</Text>
      <TextInput
        label="Link"
        value={url}
        readOnly
        onFocus={(event) => {
          event.currentTarget.select();
        }}
      />
      <Group justify="flex-end" gap="sm">
        <CopyButton value={url} timeout={3000}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'light' : 'filled'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              onClick={copy}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onClose}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
