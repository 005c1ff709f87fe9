import type { ReactElement } from 'react';
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PublicPage } from '../../ui/PublicPage';
import { signInPath, signUpPath } from './sign-in';

/** /login: where the user lands after logging out from the unlock screen. */
export function LoginPage(): ReactElement {
  return (
    <PublicPage>
      <Paper withBorder radius="lg" p={{ base: 'lg', xs: 40 }} shadow="sm" maw={440} w="100%">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconLogout size={28} stroke={1.6} aria-hidden />
          </ThemeIcon>
          <Title order={1} fz={26}>
            You have been logged out
          </Title>
          <Text c="dimmed">
            Your keys have been cleared from this browser. Log in again to get back to your files.
          </Text>
          <Button component={Link} to={signInPath} size="md" fullWidth mt="xs">
            Log in
          </Button>
          <Button component={Link} to={signUpPath} size="md" fullWidth variant="subtle">
            Create account
          </Button>
        </Stack>
      </Paper>
    </PublicPage>
  );
}
