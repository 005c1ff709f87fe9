import { useEffect, type ReactElement } from 'react';
import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconRefresh, IconWifiOff } from '@tabler/icons-react';
import { Navigate, useLocation, useRouteError } from 'react-router';
import { isChunkLoadError } from './lazy-page';
import { paths } from './paths';

function ReloadScreen({ title, message }: { title: string; message: string }): ReactElement {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="md" maw={440} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="orange">
          <IconWifiOff size={28} aria-hidden />
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
 * Route error element. The spec: "A navigation error goes to /landing". A part of the app that
 * failed to load (time-out, new deploy, lost network) offers a reload instead, because /landing
 * would not help; so does an error on /landing itself, which must not redirect to itself.
 */
export function RouteErrorBoundary(): ReactElement {
  const error = useRouteError();
  const { pathname } = useLocation();

  useEffect(() => {
    console.error('Navigation error', error);
  }, [error]);

  if (isChunkLoadError(error)) {
    return (
      <ReloadScreen
        title="Coffer could not load"
        message="Part of the application did not load. Check your connection and reload the page."
      />
    );
  }
  if (pathname === paths.landing) {
    return <ReloadScreen title="Something went wrong" message="Reload the page to try again." />;
  }
  return <Navigate to={paths.landing} replace />;
}
