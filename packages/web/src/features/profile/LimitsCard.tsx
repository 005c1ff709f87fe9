import type { ReactElement } from 'react';
import { formatCount, profileMessages, type StatsResponse } from '@coffer/contracts';
import {
  Alert,
  Badge,
  Button,
  Card,
  DataList,
  Group,
  Progress,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconCreditCard, IconSparkles } from '@tabler/icons-react';
import { useApiClient } from '../../lib/api/context';
import { limitsViewOf, type UsageLine } from '../../lib/format/limits';
import { snackbar } from '../../lib/snackbar';
import { billingPortalUrl, paymentMessages, upgradeCheckoutUrl } from './payments';

interface LimitsCardProps {
  stats: StatsResponse | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  /** Sends the browser to the payment provider. */
  redirect: (url: string) => void;
}

/** Usage against the tier's limits (spec section 9), with Upgrade or Manage subscription. */
export function LimitsCard({ stats, loading, failed, onRetry, redirect }: LimitsCardProps): ReactElement {
  const view = limitsViewOf(stats);
  const api = useApiClient();
  const payment = useMutation({
    mutationFn: (kind: 'portal' | 'checkout') =>
      kind === 'portal'
        ? billingPortalUrl(api, window.location.origin)
        : upgradeCheckoutUrl(api, window.location.origin),
    onSuccess: (url) => {
      redirect(url);
    },
    onError: (_error, kind) => {
      snackbar.danger(kind === 'portal' ? paymentMessages.portalFailed : paymentMessages.checkoutFailed);
    },
  });
  // Stays busy after success: the page is about to leave for the payment provider.
  const busy = payment.isPending || payment.isSuccess;

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="limits-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="lg" id="limits-title">
            {profileMessages.limits}
          </Title>
          <Badge variant="light" color={view.tier === 'PAID' ? 'grape' : 'gray'} size="lg">
            {view.tierLabel}
          </Badge>
        </Group>

        {failed ? (
          <Alert color="red" variant="light" title="Usage is not available right now.">
            <Button size="xs" variant="default" mt="xs" onClick={onRetry}>
              Try again
            </Button>
          </Alert>
        ) : (
          <>
            <Stack gap={6}>
              <Group justify="space-between" gap="xs">
                <Text size="sm" fw={500} id="storage-label">
                  Storage
                </Text>
                {view.storage === null ? (
                  <Skeleton height={12} width={120} />
                ) : (
                  <Text size="sm" c="dimmed">
                    {`${view.storage.usedText} of ${view.storage.limitText}`}
                  </Text>
                )}
              </Group>
              <Progress.Root size="lg" radius="xl">
                <Progress.Section
                  value={view.storage?.percent ?? 0}
                  color={storageColor(view.storage?.percent ?? 0)}
                  aria-labelledby="storage-label"
                  animated={loading}
                />
              </Progress.Root>
              {view.storage !== null && (
                <Text size="xs" c="dimmed" ta="right">
                  {`${view.storage.percent}% used`}
                </Text>
              )}
            </Stack>

            <DataList withDivider labelWidth={160}>
              <UsageItem label="Contacts" usage={view.contacts} />
              <UsageItem label="Shares" usage={view.shares} />
              {view.nextBillingDate !== null && (
                <DataList.Item>
                  <DataList.ItemLabel>Next billing date</DataList.ItemLabel>
                  <DataList.ItemValue>{view.nextBillingDate}</DataList.ItemValue>
                </DataList.Item>
              )}
            </DataList>
          </>
        )}

        <Group justify="flex-end">
          {view.tier === 'FREE' ? (
            <Button
              leftSection={<IconSparkles size={18} aria-hidden />}
              loading={busy && payment.variables === 'checkout'}
              disabled={stats === undefined}
              onClick={() => {
                payment.mutate('checkout');
              }}
            >
              {paymentMessages.upgrade}
            </Button>
          ) : (
            <Button
              variant="default"
              leftSection={<IconCreditCard size={18} aria-hidden />}
              loading={busy && payment.variables === 'portal'}
              onClick={() => {
                payment.mutate('portal');
              }}
            >
              {paymentMessages.manage}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function UsageItem({ label, usage }: { label: string; usage: UsageLine | null }): ReactElement {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue>
        {usage === null ? (
          <Skeleton height={12} width={60} />
        ) : (
          `${formatCount(usage.used)} / ${formatCount(usage.limit)}`
        )}
      </DataList.ItemValue>
    </DataList.Item>
  );
}

function storageColor(percent: number): string {
  if (percent >= 100) return 'red';
  if (percent >= 90) return 'orange';
  return 'coffer';
}
