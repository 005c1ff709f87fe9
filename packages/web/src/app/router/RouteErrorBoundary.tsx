import { useEffect, type ReactElement } from 'react';
import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRefresh, IconAlertTriangle } from '@tabler/icons-react';
import { Navigate, useLocation, useRouteError } from 'react-router';
import { navigationErrorState } from '../../features/landing/navigation-error';
import { isChunkLoadError } from './lazy-page';
import { paths } from '../../lib/navigation/paths';

function ReloadScreen({ title, message }: { title: string; message: string }): ReactElement {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="md" maw={440} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="orange">
          <IconAlertTriangle size={28} aria-hidden />
        </ThemeIcon>
        <Title order={2}>{title}</Title>
        <Text c="dimmed">{message}</Text>
        <Button
          leftSection={<IconRefresh size={18} aria-hidden />}
          onClick={() => {
            window.location.reload();
          }}
        >
          Reload
        </Button>
      </Stack>
    </Center>
  );
}

/**
 * Route error element. The spec: "A navigation error goes to /landing". The landing page then says what
 * happened and offers "Try again" (a full load of the failed path, which also fetches parts of the app
 * that a new deploy renamed). An error on /landing itself offers a reload, as it must not redirect to itself.
 */
export function RouteErrorBoundary(): ReactElement {
  const error = useRouteError();
  const { pathname, search } = useLocation();

  useEffect(() => {
    console.error('Navigation error', error);
  }, [error]);

  if (pathname === paths.landing) {
    return <ReloadScreen title="Something went wrong" message="Reload the page to try again." />;
  }
  const state = navigationErrorState(isChunkLoadError(error) ? 'load' : 'error', pathname + search);
  return <Navigate to={paths.landing} replace state={state} />;
}
