/**
 * A React root for a jsdom test: made before each test in a container of its own on the page,
 * unmounted and removed after it. `page.render(…)` draws into it (within act), and
 * `page.container` is what the test reads.
 */
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export function testRoot() {
  let root: Root | undefined;
  const page = {
    container: document.createElement('div'),
    render(node: ReactNode) {
      act(() => root?.render(node));
    },
  };
  beforeEach(() => {
    page.container = document.createElement('div');
    document.body.append(page.container);
    root = createRoot(page.container);
  });
  afterEach(() => {
    act(() => root?.unmount());
    page.container.remove();
  });
  return page;
}
