import { Alert, Button } from '@mantine/core';
import type { ReactElement } from 'react';

/** A list that failed to load: what failed, and a way to try again without reloading the page. */
export function LoadError({ title, onRetry }: { title: string; onRetry: () => void }): ReactElement {
  return (
    <Alert color="red" variant="light" title={title}>
      <Button size="xs" variant="default" mt="xs" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
