import type { ReactElement } from 'react';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Outlet } from 'react-router';
import { useShellVisible } from './shell-visibility';
import { LAYOUT_BREAKPOINT_PX } from '../theme';
import { AppHeader } from './AppHeader';
import { Footer } from '../../ui/Footer';
import { SideNav } from './SideNav';
import classes from './AppLayout.module.css';

/**
 * AppShell applies its mobile styles at `max-width: breakpoint` and its desktop styles at
 * `min-width: breakpoint`; both match at exactly the breakpoint. Just under 992px keeps 991px
 * (the spec's breakpoint) mobile and 992px desktop, matching the burger's `hiddenFrom="md"`.
 */
const NAVBAR_BREAKPOINT = LAYOUT_BREAKPOINT_PX + 0.9;

/**
 * Layout of the signed-in app: top bar, sidenav, the screen and the footer. Without a ready
 * session (`useShellVisible`) only the screen and the footer show, as on the unlock screen.
 */
export function AppLayout(): ReactElement {
  const shellVisible = useShellVisible();
  const [navOpened, { toggle, close }] = useDisclosure(false);

  return (
    <AppShell
      disabled={!shellVisible}
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: NAVBAR_BREAKPOINT, collapsed: { mobile: !navOpened } }}
    >
      {shellVisible && (
        <>
          <AppShell.Header>
            <AppHeader navOpened={navOpened} onToggleNav={toggle} />
          </AppShell.Header>
          <AppShell.Navbar id="app-navbar" aria-label="Sidebar">
            <SideNav onNavigate={close} />
          </AppShell.Navbar>
        </>
      )}
      <AppShell.Main className={classes.main}>
        <div className={classes.content}>
          <Outlet />
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
