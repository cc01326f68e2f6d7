/** The toasts' place on the page (sonner), loaded with the first toast or interaction. */
import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';

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
      toastOptions={{ duration: 5000, closeButtonAriaLabel: t('Close toast') }}
    />
  );
}
