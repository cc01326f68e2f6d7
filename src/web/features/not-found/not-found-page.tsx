/** Any path no screen has: a friendly 404 with a way home. */
import { Compass } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_NAME } from '../../../shared/constants';
import { buttonVariants } from '../../components/ui/button';

export function NotFoundPage() {
  const { t } = useTranslation();
  const title = t('Page not found · {app}', { app: APP_NAME });
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <div className="flex min-h-[70dvh] flex-col items-center justify-center text-center">
      <span className="mb-4 flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary">
        <Compass className="size-8" aria-hidden="true" />
      </span>
      <p className="text-5xl font-bold tracking-tight text-primary">404</p>
      <h1 className="mt-2 text-xl font-semibold">{t('Oops! Page not found')}</h1>
      <p className="mt-1 text-muted-foreground">
        {t('The page you were looking for doesn’t exist.')}
      </p>
      <Link to="/" className={buttonVariants({ className: 'mt-6' })}>
        {t('Return to Home')}
      </Link>
    </div>
  );
}

export default NotFoundPage;
