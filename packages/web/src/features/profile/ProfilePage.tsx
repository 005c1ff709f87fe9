import type { ReactElement } from 'react';
import { Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useCurrentUser } from '../../session/current-user';
import { AnalyticsConsentSwitch } from '../analytics/AnalyticsConsent';
import { PersonAvatar } from '../contacts/PersonAvatar';
import { ProvideFeedbackCard } from '../feedback/ProvideFeedbackCard';
import { LimitsCard } from './LimitsCard';
import { PersonalDetailsCard } from './PersonalDetailsCard';
import { SecurityCard } from './SecurityCard';
import { SignInSecurityCard } from './SignInSecurityCard';
import { useStats } from './use-stats';

interface ProfilePageProps {
  /** Sends the browser to the payment provider's page; tests replace it. */
  redirect?: (url: string) => void;
}

function assignLocation(url: string): void {
  window.location.assign(url);
}

/** Profile (/profile): the user, their limits, payments and feedback. The payment portal returns here. */
export function ProfilePage({ redirect = assignLocation }: ProfilePageProps): ReactElement {
  const user = useCurrentUser();
  const stats = useStats();
  const name = user?.name ?? 'Profile';
  const email = user?.email ?? user?.idTokenClaims.emails[0] ?? null;

  return (
    <Stack gap="lg">
      <Group gap="md" wrap="nowrap">
        <PersonAvatar
          name={name}
          email={email}
          color={user?.color ?? '#1f4b99'}
          image={user?.image}
          size={64}
        />
        <Stack gap={2} miw={0}>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          {email !== null && (
            <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {email}
            </Text>
          )}
        </Stack>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <PersonalDetailsCard user={user} />
        <LimitsCard
          stats={stats.data}
          loading={stats.isPending}
          failed={stats.isError}
          onRetry={() => {
            void stats.refetch();
          }}
          redirect={redirect}
        />
      </SimpleGrid>
      <SignInSecurityCard />
      <SecurityCard email={email} />
      <AnalyticsConsentSwitch />
      <ProvideFeedbackCard />
    </Stack>
  );
}
