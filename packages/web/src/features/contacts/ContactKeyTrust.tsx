import { useState, type ReactElement } from 'react';
import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconShieldCheck,
  IconShieldQuestion,
  IconShieldX,
} from '@tabler/icons-react';
import type { KeyTrust, KeyTrustState, ServedKey } from '../../lib/trust/key-trust';
import { trustErrorMessage } from '../../lib/trust/own-keys';
import { SafetyNumber } from './SafetyNumber';
import { usePinContact } from './use-contact-trust';

/** The words for each key state; the badge is text with an icon, never colour alone. */
const BADGES: Record<KeyTrustState, { label: string; color: string; Icon: typeof IconShieldCheck }> = {
  new: { label: 'Checking key', color: 'gray', Icon: IconShieldQuestion },
  tofu: { label: 'Not verified in person', color: 'yellow', Icon: IconShieldQuestion },
  'key-changed-accepted': {
    label: 'New key accepted, not verified',
    color: 'yellow',
    Icon: IconShieldQuestion,
  },
  verified: { label: 'Verified in person', color: 'green', Icon: IconShieldCheck },
  'key-changed': { label: 'Key changed', color: 'red', Icon: IconAlertTriangle },
  'invalid-binding': { label: 'Keys do not match', color: 'red', Icon: IconShieldX },
  'no-signing-key': { label: 'Sharing paused', color: 'orange', Icon: IconAlertTriangle },
};

/** Which of the key states a contact is in, as a badge. */
export function KeyTrustBadge({ state }: { state: KeyTrustState }): ReactElement {
  const { label, color, Icon } = BADGES[state];
  return (
    <Badge variant="light" color={color} leftSection={<Icon size={14} aria-hidden />} data-key-state={state}>
      {label}
    </Badge>
  );
}

interface ContactKeyTrustProps {
  name: string;
  email: string;
  served: ServedKey;
  trust: KeyTrust;
}

/**
 * What the user can do about a contact's key: accept a changed key after reading the new safety
 * number, or mark the contact verified after comparing safety numbers in person.
 */
export function ContactKeyTrust({ name, email, served, trust }: ContactKeyTrustProps): ReactElement | null {
  const pin = usePinContact();
  const [confirming, setConfirming] = useState(false);

  if (trust.state === 'invalid-binding') {
    return (
      <Alert
        color="red"
        variant="light"
        role="alert"
        title="Keys do not match"
        icon={<IconShieldX size={18} aria-hidden />}
      >
        <Text size="sm">{trust.reason}</Text>
      </Alert>
    );
  }
  if (trust.state === 'no-signing-key') {
    return (
      <Alert
        color="orange"
        variant="light"
        role="alert"
        title="Sharing paused"
        icon={<IconAlertTriangle size={18} aria-hidden />}
      >
        <Text size="sm">{trust.reason}</Text>
      </Alert>
    );
  }
  if (trust.state === 'key-changed') {
    return (
      <Alert
        color="red"
        variant="light"
        role="alert"
        title="Key changed"
        icon={<IconAlertTriangle size={18} aria-hidden />}
      >
        <Stack gap="sm">
          <Text size="sm">
            {trust.reason} Sharing with {name} is blocked until you accept the new key.
          </Text>
          {trust.pinnedSafetyNumber !== undefined && (
            <SafetyNumber label="Previous safety number" fingerprint={trust.pinnedSafetyNumber} compact />
          )}
          <SafetyNumber label="New safety number" fingerprint={trust.safetyNumber} compact />
          <Group gap="xs">
            <Button
              size="xs"
              color="red"
              variant="light"
              loading={pin.isPending}
              onClick={() => {
                pin.mutate({ email, served, state: 'key-changed-accepted' });
              }}
            >
              Accept new safety number
            </Button>
          </Group>
          {pin.isError && (
            <Text size="sm" c="red">
              The new key could not be saved. Please try again.
            </Text>
          )}
        </Stack>
      </Alert>
    );
  }
  if (trust.state === 'verified' || trust.state === 'new') return null;
  return (
    <>
      <Group gap="xs">
        <Button
          size="xs"
          variant="subtle"
          leftSection={<IconCircleCheck size={16} aria-hidden />}
          onClick={() => {
            setConfirming(true);
          }}
        >
          Mark as verified
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title={`Verify ${name}`}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            Ask {name} to read out the safety number on their Profile page, in person or on a call. Mark them
            as verified only if every group matches.
          </Text>
          <SafetyNumber label="Safety number" fingerprint={trust.safetyNumber} />
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              onClick={() => {
                setConfirming(false);
              }}
            >
              Cancel
            </Button>
            <Button
              loading={pin.isPending}
              onClick={() => {
                pin.mutate(
                  { email, served, state: 'verified' },
                  {
                    onSuccess: () => {
                      setConfirming(false);
                    },
                  },
                );
              }}
            >
              They match: mark verified
            </Button>
          </Group>
          {pin.isError && (
            <Text size="sm" c="red">
              Could not save. Please try again.
            </Text>
          )}
        </Stack>
      </Modal>
    </>
  );
}

/** Words for a failed key check (a forged or rolled-back pin set, or a network failure). */
export function ContactTrustError({ error }: { error: unknown }): ReactElement {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title="Key not checked"
      icon={<IconShieldX size={18} aria-hidden />}
    >
      <Text size="sm">
        {trustErrorMessage(error) ??
          'This contact’s key could not be checked. Sharing is paused until it can be.'}
      </Text>
    </Alert>
  );
}
