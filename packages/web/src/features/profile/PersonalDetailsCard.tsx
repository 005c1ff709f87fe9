import type { ReactElement } from 'react';
import { profileMessages } from '@coffer/contracts';
import { publicKeyFingerprint } from '@coffer/crypto';
import { Card, DataList, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SessionUser } from '../../session/current-user';
import { useApiClient } from '../../lib/api/context';
import { keysApi } from '../../lib/api/endpoints';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { formatCountry } from '../../lib/format/country';
import { SafetyNumber } from '../contacts/SafetyNumber';

const NOT_PROVIDED = 'Not provided';

/** Name, email and country from the identity claims (spec section 2), and the user's safety number. */
export function PersonalDetailsCard({ user }: { user: SessionUser | null }): ReactElement {
  const email = user?.email ?? user?.idTokenClaims.emails[0] ?? null;
  const country = formatCountry(user?.idTokenClaims.country);
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="personal-details-title">
      <Stack gap="md">
        <Title order={2} fz="lg" id="personal-details-title">
          {profileMessages.personalDetails}
        </Title>
        <DataList withDivider labelWidth={120}>
          <Detail label="Name" value={user?.name ?? null} />
          <Detail label="Email" value={email} />
          <Detail label="Country" value={country} />
        </DataList>
        <OwnSafetyNumber />
      </Stack>
    </Card>
  );
}

function Detail({ label, value }: { label: string; value: string | null }): ReactElement {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue style={{ overflowWrap: 'anywhere' }}>
        {value ?? (
          <Text span c="dimmed" inherit>
            {NOT_PROVIDED}
          </Text>
        )}
      </DataList.ItemValue>
    </DataList.Item>
  );
}

/**
 * The fingerprint of the user's own public key: what contacts compare with the safety number they
 * see for this user. Hidden until the user has a key.
 */
function OwnSafetyNumber(): ReactElement | null {
  const api = useApiClient();
  const fingerprint = useQuery({
    queryKey: ['profile', 'own-key-fingerprint'],
    queryFn: async () => publicKeyFingerprint((await keysApi.active(api)).publicKey),
    retry: retryUnlessClientError,
    staleTime: 5 * 60_000,
  });
  if (fingerprint.data === undefined) return null;
  return (
    <SafetyNumber
      label="Your safety number"
      fingerprint={fingerprint.data}
      hint="Your contacts see this number for you. If theirs matches, files they share are encrypted for your key."
    />
  );
}
