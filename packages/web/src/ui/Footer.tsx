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

/**
 * An external link opens a new tab; a built-in page is an in-app navigation, no reload. `inText`:
 * a link within a line of text of the same colour is underlined, so it shows as a link.
 */
function FooterLink({
  href,
  children,
  inText = false,
}: {
  href: string;
  children: string;
  inText?: boolean;
}): ReactElement {
  const look = { size: 'sm', c: 'dimmed', underline: inText ? 'always' : 'hover' } as const;
  return isExternal(href) ? (
    <Anchor href={href} {...look} {...externalProps(href)}>
      {children}
    </Anchor>
  ) : (
    <Anchor component={Link} to={href} {...look}>
      {children}
    </Anchor>
  );
}

/**
 * Footer links (spec): terms, privacy, FAQ, about and the company site (`VITE_COMPANY_URL`, else
 * the About page).
 */
export function Footer({ width = 'app' }: FooterProps): ReactElement {
  const content = (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()}{' '}
        <FooterLink href={appConfig.links.company} inText>
          {appConfig.companyName}
        </FooterLink>
      </Text>
      <nav aria-label="Footer">
        <Group gap="lg" component="ul" className={classes.links}>
          {LINKS.map((link) => (
            <li key={link.label}>
              <FooterLink href={link.href}>{link.label}</FooterLink>
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
