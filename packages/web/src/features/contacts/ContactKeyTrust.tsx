import { useState, type ReactElement } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconShieldCheck,
  IconShieldQuestion,
  IconShieldX,
} from '@tabler/icons-react';
import type { KeyTrust, KeyTrustState, ServedKey } from '../../lib/trust/key-trust';
import { trustErrorMessage } from '../../lib/trust/own-keys';
import { StateBadge } from '../../ui/StateBadge';
import { StateCallout } from '../../ui/StateCallout';
import type { StateLook } from '../../ui/state-look';
import { SafetyNumber } from './SafetyNumber';
import { usePinContact } from './use-contact-trust';

/** Each key state's words, colour and icon: the card's badge, and the title of its callout. */
const KEY_STATES: Record<KeyTrustState, StateLook> = {
  new: { label: 'Checking key', color: 'gray', icon: IconShieldQuestion },
  tofu: { label: 'Not verified in person', color: 'yellow', icon: IconShieldQuestion },
  'key-changed-accepted': {
    label: 'New key accepted, not verified',
    color: 'yellow',
    icon: IconShieldQuestion,
  },
  verified: { label: 'Verified in person', color: 'green', icon: IconShieldCheck },
  'key-changed': { label: 'Key changed', color: 'red', icon: IconAlertTriangle },
  'invalid-binding': { label: 'Keys do not match', color: 'red', icon: IconShieldX },
  'no-signing-key': { label: 'Sharing paused', color: 'orange', icon: IconAlertTriangle },
};

const KEY_NOT_CHECKED: StateLook = { label: 'Key not checked', color: 'red', icon: IconShieldX };

/** Which of the key states a contact is in, as a badge. */
export function KeyTrustBadge({ state }: { state: KeyTrustState }): ReactElement {
  return <StateBadge look={KEY_STATES[state]} data-key-state={state} />;
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

  if (trust.state === 'invalid-binding' || trust.state === 'no-signing-key') {
    return <StateCallout look={KEY_STATES[trust.state]} size="sm" reason={trust.reason ?? ''} />;
  }
  if (trust.state === 'key-changed') {
    return (
      <StateCallout
        look={KEY_STATES['key-changed']}
        size="sm"
        reason={`${trust.reason ?? ''} Sharing with ${name} is blocked until you accept the new key.`}
        actions={[
          {
            label: 'Accept new safety number',
            loading: pin.isPending,
            onClick: () => {
              pin.mutate({ email, served, state: 'key-changed-accepted' });
            },
          },
        ]}
        actionError={pin.isError ? 'The new key could not be saved. Please try again.' : null}
      >
        {trust.pinnedSafetyNumber !== undefined && (
          <SafetyNumber label="Previous safety number" fingerprint={trust.pinnedSafetyNumber} compact />
        )}
        <SafetyNumber label="New safety number" fingerprint={trust.safetyNumber} compact />
      </StateCallout>
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
    <StateCallout
      look={KEY_NOT_CHECKED}
      size="sm"
      reason={
        trustErrorMessage(error) ??
        'This contact’s key could not be checked. Sharing is paused until it can be.'
      }
    />
  );
}
