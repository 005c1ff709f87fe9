import type { ReactElement } from 'react';
import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { appConfig } from '../lib/app-config';
import classes from './Footer.module.css';

const LINKS = [
  { label: 'Terms', href: appConfig.links.terms },
  { label: 'Privacy', href: appConfig.links.privacy },
  { label: 'FAQ', href: appConfig.links.faq },
  { label: 'About', href: appConfig.links.about },
] as const;

function isExternal(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

/** External links open in a new tab and pass no referrer or opener to the other site. */
function externalProps(href: string): { target?: string; rel?: string } {
  return isExternal(href) ? { target: '_blank', rel: 'noopener noreferrer' } : {};
}

interface FooterProps {
  /** `app`: lines up with the app layout's content; `page`: with a page's `Container size="lg"`. */
  width?: 'app' | 'page';
}

/** Footer links (spec): terms, privacy, FAQ, about and the company site (only when configured). */
export function Footer({ width = 'app' }: FooterProps): ReactElement {
  const content = (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()}{' '}
        {appConfig.links.company === null ? (
          appConfig.companyName
        ) : (
          <Anchor href={appConfig.links.company} c="dimmed" {...externalProps(appConfig.links.company)}>
            {appConfig.companyName}
          </Anchor>
        )}
      </Text>
      <nav aria-label="Footer">
        <Group gap="lg" component="ul" className={classes.links}>
          {LINKS.map((link) => (
            <li key={link.label}>
              {isExternal(link.href) ? (
                <Anchor href={link.href} size="sm" c="dimmed" {...externalProps(link.href)}>
                  {link.label}
                </Anchor>
              ) : (
                // The built-in pages: an in-app navigation, no reload.
                <Anchor component={Link} to={link.href} size="sm" c="dimmed">
                  {link.label}
                </Anchor>
              )}
            </li>
          ))}
        </Group>
      </nav>
    </Group>
  );

  return (
    <footer className={classes.footer}>
      {width === 'page' ? (
        <Container size="lg">{content}</Container>
      ) : (
        <div className={classes.app}>{content}</div>
      )}
    </footer>
  );
}
