import { useEffect, useRef, type ReactElement } from 'react';
import { Button, Center } from '@mantine/core';

/**
 * The end of a long grid: a button that shows the next cards, pressed by itself when it scrolls
 * near the viewport. A list of 10,000 files renders its first screen at once and the rest as the
 * user scrolls (issue 31: the first screen within 1 s).
 */
export function ShowMore({ remaining, onMore }: { remaining: number; onMore: () => void }): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  const more = useRef(onMore);
  more.current = onMore;
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) more.current();
      },
      { rootMargin: '800px' },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, []);
  return (
    <Center ref={ref} py="md">
      <Button variant="default" onClick={onMore}>
        Show more ({remaining} more)
      </Button>
    </Center>
  );
}
