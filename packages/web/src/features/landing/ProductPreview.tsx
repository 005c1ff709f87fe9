import type { ReactElement } from 'react';
import { Avatar, Badge, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFileTypePdf, IconFileZip, IconKey, IconLock, IconPhoto } from '@tabler/icons-react';
import classes from './LandingPage.module.css';

const FILES = [
  {
    name: 'Tax return 2025.pdf',
    meta: '2.41 MB · 12/03/2026',
    icon: IconFileTypePdf,
    color: 'red',
    sharedWith: null,
  },
  {
    name: 'Lease agreement.zip',
    meta: '18.70 MB · 02/03/2026',
    icon: IconFileZip,
    color: 'yellow',
    sharedWith: 'A',
  },
  {
    name: 'Passport scan.png',
    meta: '3.06 MB · 27/02/2026',
    icon: IconPhoto,
    color: 'grape',
    sharedWith: null,
  },
] as const;

/** A drawing of the app for the landing page: decorative, hidden from assistive technology. */
export function ProductPreview(): ReactElement {
  return (
    <Paper className={classes.preview} radius="lg" shadow="xl" withBorder aria-hidden="true">
      <Group justify="space-between" className={classes.previewBar}>
        <Text fw={600}>My Files</Text>
        <Badge variant="light" color="green" leftSection={<IconLock size={12} />}>
          Unlocked
        </Badge>
      </Group>
      <Stack gap={0}>
        {FILES.map((file) => (
          <Group key={file.name} className={classes.previewRow} wrap="nowrap" justify="space-between">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <ThemeIcon variant="light" color={file.color} size={38} radius="md">
                <file.icon size={20} stroke={1.6} />
              </ThemeIcon>
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={500} truncate>
                  {file.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {file.meta}
                </Text>
              </Stack>
            </Group>
            <Group gap={8} wrap="nowrap">
              {file.sharedWith !== null && (
                <Avatar size={24} radius="xl" color="coffer">
                  {file.sharedWith}
                </Avatar>
              )}
              <IconLock size={16} stroke={1.8} color="var(--mantine-color-green-7)" />
            </Group>
          </Group>
        ))}
      </Stack>
      <Group gap="sm" className={classes.previewFooter} wrap="nowrap">
        <IconKey size={16} stroke={1.8} />
        <Text size="xs" c="dimmed">
          Decrypted only here, in your browser
        </Text>
      </Group>
    </Paper>
  );
}
