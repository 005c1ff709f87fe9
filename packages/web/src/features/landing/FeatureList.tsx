import type { ReactElement } from 'react';
import { Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconDeviceLaptop, IconServerOff, IconUserShare } from '@tabler/icons-react';
import classes from './LandingPage.module.css';

const FEATURES = [
  {
    icon: IconDeviceLaptop,
    title: 'Encrypted in your browser',
    text: 'Every file gets its own key and is encrypted on your device before it is uploaded. Your master unlock key never leaves your browser.',
  },
  {
    icon: IconServerOff,
    title: 'The server never sees the content',
    text: 'Coffer stores only encrypted data. Without your keys, nobody can read your files: not an intruder, and not us.',
  },
  {
    icon: IconUserShare,
    title: 'Share with your contacts',
    text: 'Share a file with a contact and only they can decrypt it, with their own key. Revoke access whenever you want.',
  },
] as const;

const FACTS = [
  'AES-256-GCM for every file',
  'RSA-OAEP 2048-bit key pairs',
  'Keys unlocked only in your browser',
];

export function FeatureList(): ReactElement {
  return (
    <Stack gap={40}>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl" verticalSpacing="md">
        {FEATURES.map((feature) => (
          <Stack key={feature.title} gap="sm" className={classes.feature}>
            <ThemeIcon size={44} radius="md" variant="light">
              <feature.icon size={24} stroke={1.6} aria-hidden />
            </ThemeIcon>
            <Title order={3} fz="lg">
              {feature.title}
            </Title>
            <Text c="dimmed" size="sm" lh={1.6}>
              {feature.text}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
      <Group component="ul" gap="xl" justify="center" className={classes.facts}>
        {FACTS.map((fact) => (
          <Group component="li" key={fact} gap={8} wrap="nowrap">
            <IconCircleCheck size={18} stroke={1.8} color="var(--mantine-color-green-7)" aria-hidden />
            <Text size="sm" c="dimmed">
              {fact}
            </Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}
