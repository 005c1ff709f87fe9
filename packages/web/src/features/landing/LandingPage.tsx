import { useEffect, useState, type ReactElement } from 'react';
import { Box, Button, Container, Grid, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconArrowRight,
  IconBellRinging,
  IconCircleX,
  IconClockExclamation,
  IconFileLock,
  IconMailOpened,
  IconShieldLock,
} from '@tabler/icons-react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Footer } from '../../ui/Footer';
import { Logo } from '../../ui/Logo';
import { paths } from '../../lib/navigation/paths';
import { useHasAccount } from '../../session/use-has-account';
import { FeatureList } from './FeatureList';
import { useAppSession } from '../../session/session-context';
import { SESSION_ENDED_FLAG, TRANSFERS_CANCELLED_FLAG } from '../../lib/storage/session-flags';
import { navigationErrorMessage } from './navigation-error';
import { NavigationErrorCallout } from './NavigationErrorCallout';
import {
  landingMessage,
  sessionEndedMessage,
  transfersCancelledMessage,
  type LandingMessage,
  type LandingMessageKind,
} from './landing-message';
import { ProductPreview } from './ProductPreview';
import { signInPath, signUpPath } from './sign-in';
import classes from './LandingPage.module.css';

const MESSAGE_ICONS: Record<LandingMessageKind, typeof IconMailOpened> = {
  invite: IconMailOpened,
  'file-share': IconFileLock,
  notification: IconBellRinging,
  'session-ended': IconClockExclamation,
  'transfers-cancelled': IconCircleX,
};

/**
 * A flag kept across the logout for this page: read once, then forgotten. Not while the logout is
 * still running: signing out re-renders the app on /landing before the tab leaves for the provider's
 * end-session page, and that passing render must leave the flag for the /landing the tab comes back to.
 */
function useFlagOnce(key: typeof SESSION_ENDED_FLAG | typeof TRANSFERS_CANCELLED_FLAG): string | null {
  const session = useAppSession();
  const { flags } = session;
  const [value] = useState(() => flags.get(key));
  useEffect(() => {
    if (value !== null && !session.isLoggingOut()) flags.remove(key);
  }, [value, key, flags, session]);
  return value;
}

function ReasonCallout({ message }: { message: LandingMessage }): ReactElement {
  const Icon = MESSAGE_ICONS[message.kind];
  return (
    <Group className={classes.callout} gap="md" wrap="nowrap" align="flex-start" role="status">
      <ThemeIcon size={40} radius="md" variant="light">
        <Icon size={22} stroke={1.7} aria-hidden />
      </ThemeIcon>
      <Stack gap={2} miw={0}>
        <Text fw={600} className={classes.calloutTitle}>
          {message.title}
        </Text>
        <Text size="sm" c="dimmed">
          {message.body}
        </Text>
      </Stack>
    </Group>
  );
}

/**
 * The public landing page (/landing): invites the visitor to log in or create an account; someone
 * already signed in is offered "Open Coffer" instead.
 */
export function LandingPage(): ReactElement {
  const [searchParams] = useSearchParams();
  const sessionEnded = useFlagOnce(SESSION_ENDED_FLAG) === 'true';
  const cancelled = transfersCancelledMessage(useFlagOnce(TRANSFERS_CANCELLED_FLAG));
  const message = sessionEnded
    ? sessionEndedMessage
    : landingMessage(searchParams.get('reason'), searchParams.get('fileId'));
  const navigationError = navigationErrorMessage(useLocation().state);
  const signedIn = useHasAccount();

  return (
    <div className={classes.page}>
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Link to="/landing" aria-label="Coffer home" className={classes.logoLink}>
              <Logo size={32} />
            </Link>
            <Button component={Link} to={signedIn ? paths.root : signInPath} variant="subtle">
              {signedIn ? 'Open Coffer' : 'Log in'}
            </Button>
          </Group>
        </Container>
      </header>

      <main className={classes.main}>
        <section className={classes.hero}>
          <Container size="lg">
            <Grid gap={{ base: 40, md: 56 }} align="center">
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Stack gap="lg">
                  {navigationError !== null && <NavigationErrorCallout message={navigationError} />}
                  {message !== null && <ReasonCallout message={message} />}
                  {cancelled !== null && <ReasonCallout message={cancelled} />}
                  <Group gap={8} c="coffer.8" wrap="nowrap">
                    <IconShieldLock size={18} stroke={1.8} aria-hidden />
                    <Text size="sm" fw={600} tt="uppercase" lts={0.6}>
                      End-to-end encrypted file storage
                    </Text>
                  </Group>
                  <Title order={1} className={classes.title}>
                    Your files, encrypted before they leave your device
                  </Title>
                  <Text size="lg" c="dimmed" className={classes.lead}>
                    {signedIn
                      ? 'You are signed in. Open Coffer to get to your files.'
                      : 'Log in or create an account to store and share files that only you and the people you choose can read.'}
                  </Text>
                  <Group gap="sm" mt="xs">
                    <Button
                      component={Link}
                      to={signedIn ? paths.root : signInPath}
                      size="md"
                      rightSection={<IconArrowRight size={18} aria-hidden />}
                    >
                      {signedIn ? 'Open Coffer' : 'Log in'}
                    </Button>
                    {!signedIn && (
                      <Button component={Link} to={signUpPath} size="md" variant="default">
                        Create account
                      </Button>
                    )}
                  </Group>
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Box visibleFrom="sm">
                  <ProductPreview />
                </Box>
              </Grid.Col>
            </Grid>
          </Container>
        </section>

        <section className={classes.features} aria-labelledby="how-coffer-protects">
          <Container size="lg">
            <Title order={2} id="how-coffer-protects" className={classes.sectionTitle}>
              How Coffer keeps your files private
            </Title>
            <FeatureList />
          </Container>
        </section>
      </main>

      <Footer width="page" />
    </div>
  );
}
