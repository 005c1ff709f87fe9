import type { ReactElement } from 'react';
import { Affix, Button, Card, CloseButton, Group, Stack, Switch, Text } from '@mantine/core';
import { analyticsConsent, useAnalyticsConsent, type AnalyticsConsentStore } from '../../lib/analytics';

/** The words of the consent prompt and switch (docs/ui-strings.md). */
export const analyticsConsentText = {
  title: 'Help improve Coffer',
  body: 'May Coffer count which features are used? Only anonymous usage events are sent: never file names, emails, contacts or keys.',
  allow: 'Allow',
  deny: 'No thanks',
  later: 'Decide later',
  switchLabel: 'Share anonymous usage statistics',
  switchDescription:
    'Counts of the features used, never file names, emails, contacts or keys. Nothing is sent while this is off.',
} as const;

interface Props {
  store?: AnalyticsConsentStore;
}

/**
 * Asks once, when the server configures analytics and the person has not answered yet; closing it
 * without an answer asks again on the next visit. Nothing is sent before "Allow".
 */
export function AnalyticsConsentPrompt({ store = analyticsConsent }: Props): ReactElement | null {
  const { configured, consent, dismissed } = useAnalyticsConsent(store);
  if (!configured || consent !== null || dismissed) return null;
  return (
    <Affix position={{ bottom: 16, left: 16 }} zIndex={300}>
      <Card
        component="section"
        aria-labelledby="analytics-consent-title"
        withBorder
        shadow="md"
        radius="md"
        maw="min(420px, calc(100vw - 32px))"
      >
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text id="analytics-consent-title" fw={600}>
              {analyticsConsentText.title}
            </Text>
            <CloseButton
              aria-label={analyticsConsentText.later}
              onClick={() => {
                store.dismiss();
              }}
            />
          </Group>
          <Text size="sm">{analyticsConsentText.body}</Text>
          <Group gap="sm" justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                void store.choose('denied');
              }}
            >
              {analyticsConsentText.deny}
            </Button>
            <Button
              onClick={() => {
                void store.choose('granted');
              }}
            >
              {analyticsConsentText.allow}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Affix>
  );
}

/** Profile's switch to change the answer later; absent when analytics is not configured. */
export function AnalyticsConsentSwitch({ store = analyticsConsent }: Props): ReactElement | null {
  const { configured, consent } = useAnalyticsConsent(store);
  if (!configured) return null;
  return (
    <Card withBorder radius="lg" padding="lg">
      <Switch
        checked={consent === 'granted'}
        onChange={(event) => {
          void store.choose(event.currentTarget.checked ? 'granted' : 'denied');
        }}
        label={analyticsConsentText.switchLabel}
        description={analyticsConsentText.switchDescription}
      />
    </Card>
  );
}
