/** Every signed-in screen: its content in one centred column, and the bottom navigation. */
import { useState } from 'react';
import { Outlet } from 'react-router';
import { AddNewDialog } from './add-new-dialog';
import { BottomNav } from './bottom-nav';

export function AppLayout() {
  const [adding, setAdding] = useState(false);
  return (
    <>
      <main className="mx-auto w-full max-w-2xl px-4 pb-32">
        <Outlet />
      </main>
      <BottomNav onAdd={() => setAdding(true)} />
      <AddNewDialog open={adding} onOpenChange={setAdding} />
    </>
  );
}
