// Vitest set-up: jest-dom matchers; after each test unmount, then drop stubs, fake timers and storage.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// React 19: tell React this is a test environment so state updates inside act() are flushed.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// `waitFor` and `findBy…` wait up to 5 s instead of the library's 1 s: in `make test` these tests
// share two cores with the Rust tests, and an answer that takes 1.2 s there is not a failure (CI
// failed once on a 1 s wait). A test that waits for something to *go* (a toast) keeps its own limit.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
});

// jsdom has no matchMedia or ResizeObserver; the charting library (uPlot) asks for both. A query
// never matches and nothing is ever resized in jsdom.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
