/** The web app's entry: router, data cache, toasts, the offline notice and the service worker. */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { sessionQuery, useSessionExpiryWatch } from './features/auth/session';
import { OfflineBanner } from './features/shell/offline-banner';
import { createQueryClient } from './lib/query-client';
import { routes } from './routes';
import { registerServiceWorker } from './service-worker/register';
import './styles.css';

const queryClient = createQueryClient();
// Every screen first asks who is signed in: ask now, while the screen's own code loads.
void queryClient.prefetchQuery(sessionQuery);
const router = createBrowserRouter(routes);

function App() {
  useSessionExpiryWatch();
  return (
    <>
      <OfflineBanner />
      <RouterProvider router={router} />
      <Toaster
        position="bottom-center"
        theme="system"
        richColors
        closeButton
        offset={{ bottom: 96 }}
        mobileOffset={{ bottom: 96 }}
        toastOptions={{ duration: 5000 }}
      />
    </>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
registerServiceWorker();
