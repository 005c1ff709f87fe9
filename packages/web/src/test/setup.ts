import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// `findBy…` and `waitFor` give up after this: a ceiling for a hung screen, not a wait. Testing Library's
// 1 s default failed screens that were merely slow on a busy two-core machine, and 10 s did at load 25.
configure({ asyncUtilTimeout: 30_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

// Mantine reads media queries (colour scheme, breakpoints); happy-dom has no `matchMedia`.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: vi.fn((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(() => false),
  })),
});

// Mantine measures elements (ScrollArea, Tabs, SegmentedControl).
class ResizeObserverStub {
  observe(): void {
    /* nothing to observe in a test DOM */
  }
  unobserve(): void {
    /* nothing to observe in a test DOM */
  }
  disconnect(): void {
    /* nothing to observe in a test DOM */
  }
}
Object.defineProperty(window, 'ResizeObserver', {
  writable: true,
  configurable: true,
  value: ResizeObserverStub,
});
Object.defineProperty(globalThis, 'ResizeObserver', {
  writable: true,
  configurable: true,
  value: ResizeObserverStub,
});
