/** Any path no screen has: a friendly 404 with a way home. */
import { Compass } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { APP_NAME } from '../../../shared/constants';
import { buttonVariants } from '../../components/ui/button';

export function NotFoundPage() {
  useEffect(() => {
    document.title = `Page not found · ${APP_NAME}`;
  }, []);
  return (
    <div className="flex min-h-[70dvh] flex-col items-center justify-center text-center">
      <span className="mb-4 flex size-16 items-center justify-center rounded-full bg-primary-soft text-primary">
        <Compass className="size-8" aria-hidden="true" />
      </span>
      <p className="text-5xl font-bold tracking-tight text-primary">404</p>
      <h1 className="mt-2 text-xl font-semibold">Oops! Page not found</h1>
      <p className="mt-1 text-muted-foreground">The page you were looking for doesn’t exist.</p>
      <Link to="/" className={buttonVariants({ className: 'mt-6' })}>
        Return to Home
      </Link>
    </div>
  );
}

export default NotFoundPage;
