import { useState, type ReactElement } from 'react';
import { Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconFileCertificate, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { RecoveryKitSummary } from '../../lib/encryption/encryption-session';
import { useAppSession } from '../../session/session-context';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { StateBadge } from '../../ui/StateBadge';
import { StateCallout } from '../../ui/StateCallout';
import type { StateLook } from '../../ui/state-look';
import { recoveryKitStatusQueryKey } from '../unlock/RecoveryOffer';
import { CreateRecoveryKitModal } from './CreateRecoveryKitModal';

const NO_KIT: StateLook = { label: 'No recovery kit', color: 'orange', icon: IconAlertTriangle };
const HAS_KIT: StateLook = { label: 'Recovery kit saved', color: 'teal', icon: IconShieldCheck };
const CHECK_FAILED: StateLook = { label: 'Your recovery kit could not be checked', color: 'red' };

/** Whether the person has a recovery kit, and the way to make one (or a new one, revoking the old). */
export function RecoveryKitSection({ email }: { email: string | null }): ReactElement {
  const { encryption } = useAppSession();
  const kit = useQuery({
    queryKey: recoveryKitStatusQueryKey,
    queryFn: () => encryption.recoveryKitStatus(),
    retry: 1,
  });
  const [confirmingReplace, setConfirmingReplace] = useState(false);
  const [creating, setCreating] = useState(false);

  const modal = (
    <CreateRecoveryKitModal
      opened={creating}
      onClose={() => {
        setCreating(false);
      }}
      email={email}
    />
  );
  const create = (): void => {
    setCreating(true);
  };

  return (
    <>
      <RecoveryKitState
        kit={kit}
        onCreate={create}
        onReplace={() => {
          setConfirmingReplace(true);
        }}
      />
      <ConfirmDialog
        opened={confirmingReplace}
        title="Create a new recovery kit?"
        confirmLabel="Replace recovery kit"
        pending={false}
        onClose={() => {
          setConfirmingReplace(false);
        }}
        onConfirm={() => {
          setConfirmingReplace(false);
          create();
        }}
      >
        <Text size="sm">
          Your current recovery kit stops working as soon as the new one is made: its words will no longer
          open your keys. Keep only the new kit.
        </Text>
      </ConfirmDialog>
      {/* One place in the tree whatever the state, so the words survive the state's refresh. */}
      {modal}
    </>
  );
}

function RecoveryKitState({
  kit,
  onCreate,
  onReplace,
}: {
  kit: UseQueryResult<RecoveryKitSummary | null>;
  onCreate: () => void;
  onReplace: () => void;
}): ReactElement {
  if (kit.isPending) {
    return <Skeleton height={72} radius="md" aria-label="Checking your recovery kit" />;
  }
  if (kit.isError) {
    return (
      <StateCallout
        look={CHECK_FAILED}
        size="sm"
        reason="Check your connection and try again."
        actions={[{ label: 'Try again', icon: IconRefresh, onClick: () => void kit.refetch() }]}
      />
    );
  }
  if (kit.data === null) {
    return (
      <StateCallout
        look={NO_KIT}
        size="sm"
        reason="If you forget your master unlock key, a recovery kit is the only way to keep your files. Create one and keep it somewhere safe."
        actions={[
          { label: 'Create recovery kit', icon: IconFileCertificate, onClick: onCreate, filled: true },
        ]}
      />
    );
  }
  const created = new Date(kit.data.createdAt).toLocaleDateString(undefined, { dateStyle: 'long' });
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap">
        <StateBadge look={HAS_KIT} size="lg" tt="none" />
        <Text size="sm" c="dimmed">
          Created {created}
        </Text>
      </Group>
      <Text size="sm">
        If you forget your master unlock key, its 24 words open your keys again. Lost the kit? Create a new
        one: the old one then stops working.
      </Text>
      <Group>
        <Button
          variant="default"
          leftSection={<IconFileCertificate size={16} aria-hidden />}
          onClick={onReplace}
        >
          Create a new recovery kit
        </Button>
      </Group>
    </Stack>
  );
}
