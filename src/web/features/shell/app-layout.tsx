/**
 * Every signed-in screen: its content in one centred column, and the navigation — the bottom
 * bar on a phone, a side bar from 1024 px wide (main-nav.tsx) — with the keyboard shortcuts.
 * From 1024 px a record's page has its list beside it (list-pane.tsx), and a page marked
 * data-wide (a document's) has a wider column.
 */
import { Suspense, useCallback, useState } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { Outlet } from 'react-router';
import { cn } from '../../lib/cn';
import { useAccountLanguage } from '../profile-settings/profile-queries';
import { useShortcuts } from './keyboard-shortcuts';
import { ListPaneProvider, useListPaneSlot } from './list-pane';
import { MainNav } from './main-nav';

// The Add New dialog, and the dialog machinery with it, loads when it is first wanted: no
// screen needs it to show, and it is fetched as soon as a hand reaches for the button.
const loadAddNewDialog = () => import('./add-new-dialog');
const AddNewDialog = lazyPart(() =>
  loadAddNewDialog().then((module) => ({ default: module.AddNewDialog })),
);

const ShortcutsDialog = lazyPart(() =>
  import('./shortcuts-dialog').then((module) => ({ default: module.ShortcutsDialog })),
);

export function AppLayout() {
  useAccountLanguage();
  const [adding, setAdding] = useState(false);
  const [wanted, setWanted] = useState(false);
  const [shortcuts, setShortcuts] = useState(false);
  const pane = useListPaneSlot();
  const add = useCallback(() => {
    setWanted(true);
    setAdding(true);
  }, []);
  const showShortcuts = useCallback(() => setShortcuts(true), []);
  useShortcuts({ onAdd: add, onShortcuts: showShortcuts });
  return (
    <ListPaneProvider element={pane.element} setFilled={pane.setFilled}>
      <aside
        ref={pane.setElement}
        className={cn(
          'hidden print:hidden',
          pane.filled &&
            'lg:fixed lg:inset-y-0 lg:start-60 lg:block lg:w-72 lg:overflow-y-auto lg:border-e lg:border-border lg:bg-surface',
        )}
      />
      <div className={pane.filled ? 'lg:ps-[33rem]' : 'lg:ps-60'}>
        {/* A page that uses the width (a document, the timeline, charts) marks itself data-wide. */}
        <main className="mx-auto w-full max-w-2xl px-4 pb-32 lg:max-w-3xl lg:px-8 lg:pb-12 lg:has-[[data-wide]]:max-w-6xl print:max-w-none print:pb-0">
          <Outlet />
        </main>
      </div>
      <MainNav
        onAdd={add}
        onAddIntent={() => void loadAddNewDialog()}
        onShortcuts={showShortcuts}
      />
      {wanted ? (
        <Suspense fallback={null}>
          <AddNewDialog open={adding} onOpenChange={setAdding} />
        </Suspense>
      ) : null}
      {shortcuts ? (
        <Suspense fallback={null}>
          <ShortcutsDialog open={shortcuts} onOpenChange={setShortcuts} />
        </Suspense>
      ) : null}
    </ListPaneProvider>
  );
}
