import type { ReactElement } from 'react';
import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCloudUpload, IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../app/router/paths';

/**
 * /invite/{id}: where an invited person arrives once signed in. The spec: a welcome text says the
 * user can now exchange end-to-end encrypted files.
 */
export function InvitePage(): ReactElement {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 40 }} maw={640} mx="auto" mt={{ base: 0, sm: 'xl' }}>
      <Stack gap="lg" align="flex-start">
        <ThemeIcon size={56} radius="xl" variant="light" color="green">
          <IconShieldCheck size={30} stroke={1.6} aria-hidden />
        </ThemeIcon>
        <Title order={1} fz={28}>
          Welcome to Coffer
        </Title>
        <Text size="lg">You can now exchange end-to-end encrypted files.</Text>
        <Text c="dimmed">
          Files you share are encrypted in your browser for each recipient, so only the people you choose can
          open them. Add the people you work with to your contacts, or upload your first file.
        </Text>
        <Group gap="sm" mt="xs">
          <Button component={Link} to={paths.contacts} leftSection={<IconUsers size={18} aria-hidden />}>
            Go to Contacts
          </Button>
          <Button
            component={Link}
            to={paths.newUpload}
            variant="default"
            leftSection={<IconCloudUpload size={18} aria-hidden />}
          >
            New Upload
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
