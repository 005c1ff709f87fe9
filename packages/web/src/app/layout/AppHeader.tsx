import type { ReactElement } from 'react';
import { Burger, Group, Text, UnstyledButton } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import { Logo } from '../../ui/Logo';

interface AppHeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
}

/** The top bar: app name and, at the layout breakpoint and below, the burger for the sidenav. */
export function AppHeader({ navOpened, onToggleNav }: AppHeaderProps): ReactElement {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {/* `md` is 62em = 992px: the burger shows at 991px and below, where the sidenav collapses. */}
        <Burger
          opened={navOpened}
          onClick={onToggleNav}
          hiddenFrom="md"
          size="sm"
          aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
          aria-controls="app-navbar"
          aria-expanded={navOpened}
        />
        <UnstyledButton component={Link} to={paths.newUpload} aria-label="Coffer home">
          <Logo size={30} />
        </UnstyledButton>
      </Group>
      <Group gap={6} c="dimmed" visibleFrom="sm" wrap="nowrap">
        <IconLock size={16} stroke={1.8} aria-hidden />
        <Text size="sm">End-to-end encrypted</Text>
      </Group>
    </Group>
  );
}
