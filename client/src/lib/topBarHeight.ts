//! The screen's top bar publishes its height (`--top-bar-height` on the document), so the toasts
//! open below it rather than over its actions: an alarm's toast must not hide "Ward board" or
//! "Log out" from the nurse it is telling to act.

import { useCallback, useEffect, useRef } from 'react';

/** The CSS custom property the toasts' position reads (styles.css, `.toasts`). */
export const TOP_BAR_HEIGHT = '--top-bar-height';

/** Writes `height` (px) where the toasts read it; `null` when no top bar is shown. */
export function publishTopBarHeight(root: HTMLElement, height: number | null): void {
  if (height === null) root.style.removeProperty(TOP_BAR_HEIGHT);
  else root.style.setProperty(TOP_BAR_HEIGHT, `${Math.ceil(height)}px`);
}

/** A ref for the screen's sticky top bar: its height is published while it is shown, and again
 *  whenever it changes (a phone wraps its actions onto more lines). */
export function useTopBarHeight(): (element: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | null>(null);
  const stop = useCallback(() => {
    observer.current?.disconnect();
    observer.current = null;
  }, []);
  useEffect(() => stop, [stop]);
  return useCallback(
    (element: HTMLElement | null) => {
      stop();
      const root = document.documentElement;
      if (!element) {
        publishTopBarHeight(root, null);
        return;
      }
      const publish = () => publishTopBarHeight(root, element.getBoundingClientRect().height);
      publish();
      if (typeof ResizeObserver !== 'undefined') {
        observer.current = new ResizeObserver(publish);
        observer.current.observe(element);
      }
    },
    [stop],
  );
}
