import type { ReactElement, ReactNode } from 'react';
import { Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { LoadError } from './LoadError';

/** What a list screen shows when it has nothing to list. */
export interface ListEmpty {
  icon: ReactNode;
  title: string;
  description: string;
  /** A button leading somewhere useful (upload, add, clear the search). */
  action?: ReactNode;
  /** A search that matched nothing is drawn with an indicator, an empty list with a light icon. */
  variant?: 'light' | 'indicator';
}

/** The state of the list's query: only what the frame needs to pick loading, error or content. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

interface ListScreenProps {
  title: string;
  description: string;
  /** Beside the title on wide screens (e.g. the upload button, or a search with an add button). */
  headerAside?: ReactNode;
  /** Under the header: search, filter and sort. */
  controls?: ReactNode;
  /** Under the controls, above the list (e.g. a limit warning). */
  notice?: ReactNode;
  query: ListQueryState;
  loading: ReactNode;
  loadErrorTitle: string;
  /** Shown instead of `children` when not null. */
  empty: ListEmpty | null;
  children: ReactNode;
}

/**
 * The frame of Contacts, My Files and Shared With Me: header, controls, and one of loading, load
 * error, empty state or the list, so the three screens behave alike and a fix lands once.
 */
export function ListScreen({
  title,
  description,
  headerAside,
  controls,
  notice,
  query,
  loading,
  loadErrorTitle,
  empty,
  children,
}: ListScreenProps): ReactElement {
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <div>
          <Title order={1}>{title}</Title>
          <Text c="dimmed">{description}</Text>
        </div>
        {headerAside}
      </Group>
      {controls}
      {notice}
      {query.isPending ? (
        loading
      ) : query.isError ? (
        <LoadError
          title={loadErrorTitle}
          onRetry={() => {
            void query.refetch();
          }}
        />
      ) : empty !== null ? (
        <ListEmptyState {...empty} />
      ) : (
        children
      )}
    </Stack>
  );
}

function ListEmptyState({ icon, title, description, action, variant = 'light' }: ListEmpty): ReactElement {
  return (
    <Card withBorder radius="lg" py="xl">
      <EmptyState
        icon={icon}
        {...(variant === 'indicator' ? { withIndicatorBackground: true } : { variant: 'light' })}
        title={title}
        description={description}
      >
        {action !== undefined && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Card>
  );
}
