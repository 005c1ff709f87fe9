import type { ReactElement } from 'react';
import { AppShell, Divider, NavLink, ScrollArea } from '@mantine/core';
import { IconChevronRight, IconLogout } from '@tabler/icons-react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { PersonAvatar } from '../../features/contacts/PersonAvatar';
import { useCurrentUser } from '../../session/current-user';
import { useIsAdmin } from '../../session/use-is-admin';
import { useLogout } from '../../session/use-logout';
import { paths } from '../../lib/navigation/paths';
import { ADMIN_NAV_ITEMS, NAV_ITEMS } from './nav-items';
import classes from './SideNav.module.css';

interface SideNavProps {
  /** Called after an entry is chosen, so the mobile drawer can close. */
  onNavigate: () => void;
}

/**
 * Sidenav entries (spec): Profile (with Logout), New Upload, My Files, Shared With Me, Contacts; admins
 * also get Feedback, which is otherwise reachable only by typing its address.
 */
export function SideNav({ onNavigate }: SideNavProps): ReactElement {
  const { pathname } = useLocation();
  const logout = useLogout();
  const user = useCurrentUser();
  const items = useIsAdmin() ? [...NAV_ITEMS, ...ADMIN_NAV_ITEMS] : NAV_ITEMS;

  return (
    <>
      <AppShell.Section className={classes.profile}>
        <NavLink
          component={RouterNavLink}
          to={paths.profile}
          onClick={onNavigate}
          active={pathname === paths.profile}
          label="Profile"
          description={user?.name ?? user?.email ?? undefined}
          leftSection={
            <PersonAvatar
              name={user?.name ?? ''}
              email={user?.email}
              color={user?.color ?? 'coffer'}
              image={user?.image}
              size={34}
            />
          }
          rightSection={<IconChevronRight size={14} stroke={1.6} aria-hidden />}
          className={classes.link}
        />
        <NavLink
          component="button"
          type="button"
          onClick={() => {
            onNavigate();
            logout();
          }}
          label="Logout"
          leftSection={<IconLogout size={18} stroke={1.7} aria-hidden />}
          className={classes.link}
          c="dimmed"
        />
      </AppShell.Section>
      <Divider my="xs" />
      <AppShell.Section grow component={ScrollArea} className={classes.section}>
        <nav aria-label="Main">
          {items.map((item) => (
            <NavLink
              key={item.to}
              component={RouterNavLink}
              to={item.to}
              onClick={onNavigate}
              active={pathname === item.to}
              label={item.label}
              leftSection={<item.icon size={20} stroke={1.7} aria-hidden />}
              className={classes.link}
            />
          ))}
        </nav>
      </AppShell.Section>
    </>
  );
}
