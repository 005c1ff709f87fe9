import type { ReactElement, ReactNode } from 'react';
import { Center, Container } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../lib/navigation/paths';
import { Footer } from './Footer';
import { Logo } from './Logo';
import classes from './PublicPage.module.css';

/** Frame of the small public pages (logged out, not found): logo, centred content, footer. */
export function PublicPage({ children }: { children: ReactNode }): ReactElement {
  return (
    <div className={classes.page}>
      <header className={classes.header}>
        <Container size="lg">
          <Link to={paths.landing} aria-label="Coffer home" className={classes.logoLink}>
            <Logo size={30} />
          </Link>
        </Container>
      </header>
      <Center component="main" className={classes.main}>
        {children}
      </Center>
      <Footer width="page" />
    </div>
  );
}
