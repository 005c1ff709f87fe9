import { useSyncExternalStore, type ReactElement } from 'react';
import { LoadingOverlay, Loader, Stack, Text } from '@mantine/core';
import { overlay } from '../../lib/overlay';

/** The global overlay (spec: global elements), shown while `overlay` in `lib/overlay.ts` is held. */
export function GlobalOverlay(): ReactElement {
  const { visible, message } = useSyncExternalStore(overlay.subscribe, overlay.getState, overlay.getState);

  return (
    <LoadingOverlay
      visible={visible}
      pos="fixed"
      zIndex={1000}
      overlayProps={{ blur: 2, backgroundOpacity: 0.45 }}
      loaderProps={{
        children: (
          <Stack align="center" gap="sm" role="status" aria-live="polite">
            <Loader />
            {message !== undefined && (
              <Text fw={500} c="var(--mantine-color-text)">
                {message}
              </Text>
            )}
          </Stack>
        ),
      }}
    />
  );
}
