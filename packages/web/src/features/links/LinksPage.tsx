import { useMemo, useState, type ReactElement } from 'react';
import { Button, Loader, Stack, Title } from '@mantine/core';
import { IconInbox, IconLinkOff } from '@tabler/icons-react';
import { CardGrid } from '../../ui/CardGrid';
import { ListScreen } from '../../ui/ListScreen';
import { CreateRequestDialog } from '../requests/CreateRequestDialog';
import { useMyFiles } from '../files/use-files';
import { LinkCard } from './LinkCard';
import { RequestCard } from './RequestCard';
import { useLinks } from './use-links';

/**
 * /links (issue 30): every link and file request of mine, with state, downloads left and expiry;
 * revoke a link, close a request, make a new request. Reached from My Files' header (the spec's
 * sidebar stays as it is). Links are made from a file's card.
 */
export function LinksPage(): ReactElement {
  const links = useLinks();
  const { files } = useMyFiles();
  const [requesting, setRequesting] = useState(false);
  const fileNames = useMemo(() => new Map(files.map((file) => [file.id, file.title])), [files]);
  const data = links.data;
  const nothing = data?.links.length === 0 && data.requests.length === 0;
  const requestButton = (
    <Button
      leftSection={<IconInbox size={18} aria-hidden />}
      onClick={() => {
        setRequesting(true);
      }}
    >
      Request files
    </Button>
  );
  return (
    <>
      <ListScreen
        title="Links"
        description="Links to your files for people without an account, and requests through which they send you files."
        headerAside={requestButton}
        query={links}
        loading={<Loader aria-label="Loading links" />}
        loadErrorTitle="Your links could not be loaded."
        empty={
          nothing
            ? {
                icon: <IconLinkOff size={28} aria-hidden />,
                title: 'No links yet',
                description: 'Create a link from a file in My Files, or request files from someone.',
                action: requestButton,
              }
            : null
        }
      >
        <Stack gap="xl">
          {data !== undefined && data.links.length > 0 && (
            <Stack gap="sm">
              <Title order={2} size="h4">
                Share links
              </Title>
              <CardGrid>
                {data.links.map((link) => (
                  <LinkCard key={link.linkId} link={link} fileNames={fileNames} />
                ))}
              </CardGrid>
            </Stack>
          )}
          {data !== undefined && data.requests.length > 0 && (
            <Stack gap="sm">
              <Title order={2} size="h4">
                File requests
              </Title>
              <CardGrid>
                {data.requests.map((request) => (
                  <RequestCard key={request.requestId} request={request} fileNames={fileNames} />
                ))}
              </CardGrid>
            </Stack>
          )}
        </Stack>
      </ListScreen>
      <CreateRequestDialog
        opened={requesting}
        onClose={() => {
          setRequesting(false);
        }}
      />
    </>
  );
}
