import type { ReactElement } from 'react';
import { Center, Loader } from '@mantine/core';

/** Shown while the first screen's code loads. */
export function PageLoader(): ReactElement {
  return (
    <Center mih="100dvh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
