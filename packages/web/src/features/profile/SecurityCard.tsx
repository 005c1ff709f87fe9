import type { ReactElement } from 'react';
import { Card, Divider, Stack, Text, Title } from '@mantine/core';
import { ChangeKeyForm } from './ChangeKeyForm';
import { RecoveryKitSection } from './RecoveryKitSection';

/**
 * Profile → Security, the encryption side (issue 29): the recovery kit, and a change of master unlock
 * key. Titled apart from the sign-in security card beside it (the identity provider's factors).
 */
export function SecurityCard({ email }: { email: string | null }): ReactElement {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="security-title">
      <Stack gap="lg">
        <Title order={2} fz="lg" id="security-title">
          Encryption keys
        </Title>
        <Stack gap="sm">
          <Title order={3} fz="md" id="recovery-kit-title">
            Recovery kit
          </Title>
          <RecoveryKitSection email={email} />
        </Stack>
        <Divider />
        <Stack gap="sm">
          <div>
            <Title order={3} fz="md" id="change-key-title">
              Change master unlock key
            </Title>
            <Text size="sm" c="dimmed">
              Your files and shares stay as they are. The old key stops working at once, on every device.
            </Text>
          </div>
          <ChangeKeyForm />
        </Stack>
      </Stack>
    </Card>
  );
}
