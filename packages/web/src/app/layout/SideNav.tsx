import type { ReactElement } from 'react';
import { AppShell, Avatar, Divider, NavLink, ScrollArea } from '@mantine/core';
import { IconChevronRight, IconLogout, IconUser } from '@tabler/icons-react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';
import { useLogout } from '../session/use-logout';
import { paths } from '../router/paths';
import { NAV_ITEMS } from './nav-items';
import classes from './SideNav.module.css';

interface SideNavProps {
  /** Called after an entry is chosen, so the mobile drawer can close. */
  onNavigate: () => void;
}

/** Sidenav entries (spec): Profile (with Logout), New Upload, My Files, Shared With Me, Contacts. */
export function SideNav({ onNavigate }: SideNavProps): ReactElement {
  const { pathname } = useLocation();
  const logout = useLogout();

  return (
    <>
      <AppShell.Section className={classes.profile}>
        <NavLink
          component={RouterNavLink}
          to={paths.profile}
          onClick={onNavigate}
          active={pathname === paths.profile}
          label="Profile"
          description="Account and plan"
          leftSection={
            <Avatar size={34} radius="xl" color="coffer" variant="light">
              <IconUser size={18} aria-hidden />
            </Avatar>
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
          {NAV_ITEMS.map((item) => (
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
