import { useEffect, useState, type ReactElement } from 'react';
import { Progress } from '@mantine/core';
import { useNavigation } from 'react-router';

/** Delay before the bar shows, so fast navigations do not flicker. */
const SHOW_AFTER_MS = 200;

/** A thin bar at the top of the window while a screen's code is loading. */
export function NavigationProgress(): ReactElement | null {
  const busy = useNavigation().state !== 'idle';
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return undefined;
    }
    const timer = setTimeout(() => {
      setVisible(true);
    }, SHOW_AFTER_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [busy]);

  if (!visible) return null;
  return (
    <Progress
      value={100}
      animated
      size={3}
      radius={0}
      pos="fixed"
      top={0}
      left={0}
      right={0}
      style={{ zIndex: 1100 }}
      aria-label="Loading page"
    />
  );
}
