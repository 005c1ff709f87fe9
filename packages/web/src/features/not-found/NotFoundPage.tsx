import type { ReactElement } from 'react';
import { Button, Code, Stack, Text, Title } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { PublicPage } from '../../ui/PublicPage';
import { paths } from '../../lib/navigation/paths';

/** Any path outside the route table. */
export function NotFoundPage(): ReactElement {
  const { pathname } = useLocation();

  return (
    <PublicPage>
      <Stack align="center" ta="center" gap="md" maw={480}>
        <Text fw={700} fz={64} lh={1} c="coffer.6" aria-hidden>
          404
        </Text>
        <Title order={1} fz={28}>
          Page not found
        </Title>
        <Code
          fz="sm"
          px="sm"
          py={6}
          maw="100%"
          bg="var(--mantine-color-body)"
          bd="1px solid var(--mantine-color-default-border)"
          style={{ overflowWrap: 'anywhere' }}
        >
          {pathname}
        </Code>
        <Text c="dimmed">The link may be mistyped, or the page may have moved.</Text>
        <Button component={Link} to={paths.root} leftSection={<IconHome size={18} aria-hidden />} mt="xs">
          Back to home
        </Button>
      </Stack>
    </PublicPage>
  );
}
