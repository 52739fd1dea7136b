import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Logo } from '../components/logo.tsx';
import { Button } from '../components/ui/button.tsx';
import { usePageTitle } from '../lib/page-title.ts';
import { paths } from '../lib/paths.ts';

/** A per-route error screen: a readable sentence and a way forward, never a stack trace. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return <ErrorScreen notFound={notFound} />;
}

export function NotFoundPage() {
  return <ErrorScreen notFound />;
}

function ErrorScreen({ notFound }: { notFound: boolean }) {
  usePageTitle(notFound ? 'Page not found' : 'Something went wrong');
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo />
      <div>
        <h1 className="text-2xl font-semibold">
          {notFound ? 'This page does not exist' : 'Something went wrong'}
        </h1>
        <p className="mt-2 text-muted-foreground">
          {notFound
            ? 'The link may be old or mistyped.'
            : 'The page hit an unexpected problem. Reloading usually fixes it.'}
        </p>
      </div>
      <div className="flex gap-3">
        {notFound ? null : <Button onClick={() => window.location.reload()}>Reload</Button>}
        <Button asChild variant="outline">
          <Link to={paths.home.href()}>Go to the home page</Link>
        </Button>
      </div>
    </div>
  );
}
