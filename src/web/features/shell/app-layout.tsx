/** Every signed-in screen: its content in one centred column, and the bottom navigation. */
import { lazy, Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { BottomNav } from './bottom-nav';

// The Add New dialog, and the dialog machinery with it, loads when it is first wanted: no
// screen needs it to show, and it is fetched as soon as a hand reaches for the button.
const loadAddNewDialog = () => import('./add-new-dialog');
const AddNewDialog = lazy(() =>
  loadAddNewDialog().then((module) => ({ default: module.AddNewDialog })),
);

export function AppLayout() {
  const [adding, setAdding] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <main className="mx-auto w-full max-w-2xl px-4 pb-32">
        <Outlet />
      </main>
      <BottomNav
        onAdd={() => {
          setWanted(true);
          setAdding(true);
        }}
        onAddIntent={() => void loadAddNewDialog()}
      />
      {wanted ? (
        <Suspense fallback={null}>
          <AddNewDialog open={adding} onOpenChange={setAdding} />
        </Suspense>
      ) : null}
    </>
  );
}
