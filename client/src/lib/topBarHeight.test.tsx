import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOP_BAR_HEIGHT, useTopBarHeight } from './topBarHeight';

function Bar({ shown }: { shown: boolean }) {
  const ref = useTopBarHeight();
  return shown ? <header ref={ref}>bar</header> : null;
}

describe('the top bar publishes its height for the toasts', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.documentElement.style.removeProperty(TOP_BAR_HEIGHT);
  });

  it('while it is shown, rounded up, and not once it is gone', () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 52.4 } as DOMRect);
    const { rerender, unmount } = render(<Bar shown />);
    expect(document.documentElement.style.getPropertyValue(TOP_BAR_HEIGHT)).toBe('53px');
    rerender(<Bar shown={false} />);
    expect(document.documentElement.style.getPropertyValue(TOP_BAR_HEIGHT)).toBe('');
    rerender(<Bar shown />);
    expect(document.documentElement.style.getPropertyValue(TOP_BAR_HEIGHT)).toBe('53px');
    unmount();
    expect(document.documentElement.style.getPropertyValue(TOP_BAR_HEIGHT)).toBe('');
  });
});
