import type { ReactElement } from 'react';
import { Container, Stack, Text, Title } from '@mantine/core';
import { PublicPage } from '../../ui/PublicPage';
import { infoPages, type InfoPageId } from './info-content';

/** A built-in footer page (Terms, Privacy, FAQ, About) in the public page frame. */
export function InfoPage({ page }: { page: InfoPageId }): ReactElement {
  const content = infoPages[page];
  return (
    <PublicPage>
      <Container size="sm" w="100%" py="xl">
        <Stack gap="lg" component="article" aria-labelledby="info-title">
          <div>
            <Title order={1} id="info-title">
              {content.title}
            </Title>
            <Text size="lg" c="dimmed" mt="xs">
              {content.lead}
            </Text>
          </div>
          {content.sections.map((section) => (
            <Stack gap="xs" component="section" key={section.heading}>
              <Title order={2} size="h3">
                {section.heading}
              </Title>
              {section.paragraphs.map((paragraph) => (
                <Text key={paragraph}>{paragraph}</Text>
              ))}
            </Stack>
          ))}
        </Stack>
      </Container>
    </PublicPage>
  );
}

/** One component per page, for the router's lazy routes. */
export const infoPageComponents: Readonly<Record<InfoPageId, () => ReactElement>> = {
  terms: () => <InfoPage page="terms" />,
  privacy: () => <InfoPage page="privacy" />,
  faq: () => <InfoPage page="faq" />,
  about: () => <InfoPage page="about" />,
};
