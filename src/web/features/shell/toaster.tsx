/** The toasts' place on the page (sonner), loaded with the first toast or interaction. */
import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS } from '../../lib/toast-duration';

export default function ProductToaster() {
  const { t } = useTranslation();
  return (
    <Toaster
      position="bottom-center"
      theme="system"
      richColors
      closeButton
      containerAriaLabel={t('Notifications')}
      offset={{ bottom: 96 }}
      mobileOffset={{ bottom: 96 }}
      toastOptions={{ duration: TOAST_DURATION_MS, closeButtonAriaLabel: t('Close toast') }}
    />
  );
}
