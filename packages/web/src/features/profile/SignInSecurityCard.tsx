import type { ReactElement } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { fetchClientConfig } from '../../lib/api/endpoints';

/**
 * "Security" on the Profile page: a link to the embedded identity provider's page for two-step
 * verification, passkeys and signed-in devices. With an external issuer (which keeps its own factors)
 * the server names no such page and the card is not shown.
 */
export function SignInSecurityCard(): ReactElement | null {
  const config = useQuery({
    queryKey: ['client-config'],
    queryFn: () => fetchClientConfig(),
    staleTime: Infinity,
  });
  const url = config.data?.identity?.accountSecurityUrl ?? null;
  if (url === null) return null;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="sign-in-security-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="sign-in-security-title">
          Security
        </Title>
        <Text c="dimmed" size="sm">
          Two-step verification with an authenticator app, passkeys, and the devices signed in to your
          account.
        </Text>
        <Group>
          <Button
            component="a"
            href={url}
            variant="light"
            leftSection={<IconShieldLock size={18} aria-hidden />}
          >
            Manage sign-in security
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
