/**
 * The place beside a record's page where its list stands from 1024 px wide (issue 52:
 * list-detail). The layout holds the place (an `aside` between the side bar and the page);
 * a record's page fills it through a portal (`ListPane`), and the page moves right to make
 * room while it is filled. On a phone the place is never shown.
 */
import {
  createContext,
  useContext,
  useEffect,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';
import { createPortal } from 'react-dom';

interface PaneSlot {
  element: HTMLElement | null;
  setFilled: Dispatch<SetStateAction<number>>;
}

const PaneContext = createContext<PaneSlot>({ element: null, setFilled: () => {} });

/** The layout's side: the place, and whether a page fills it. */
export function useListPaneSlot() {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [filled, setFilled] = useState(0);
  return { element, setElement, filled: filled > 0, setFilled };
}

export function ListPaneProvider({
  element,
  setFilled,
  children,
}: PaneSlot & { children: ReactNode }) {
  return <PaneContext.Provider value={{ element, setFilled }}>{children}</PaneContext.Provider>;
}

/** What a page puts beside itself from 1024 px wide. */
export function ListPane({ children }: { children: ReactNode }) {
  const { element, setFilled } = useContext(PaneContext);
  useEffect(() => {
    setFilled((count) => count + 1);
    return () => setFilled((count) => count - 1);
  }, [setFilled]);
  return element ? createPortal(children, element) : null;
}
