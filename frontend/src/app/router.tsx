import { Suspense, useState } from 'react';
import { createBrowserRouter, isRouteErrorResponse, Outlet, RouterProvider, useRouteError, type RouteObject } from 'react-router';

import { ErrorState, Layout, Loading } from '@/components';

import { APP_TITLE, documentTitle, navItems, routes } from './routes';
import NotFound from './routes/not-found';

function Shell() {
  return (
    <Layout title={APP_TITLE} nav={navItems}>
      <Suspense fallback={<Loading label="Loading page…" />}>
        <Outlet />
      </Suspense>
    </Layout>
  );
}

function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error;
  return (
    <Layout title={APP_TITLE} nav={navItems}>
      <title>{documentTitle('Error')}</title>
      <ErrorState title="This page failed to load" error={message} onRetry={() => window.location.reload()} />
    </Layout>
  );
}

export const routeObjects: RouteObject[] = [
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      ...Object.values(routes).map(({ path, title, Page }) => ({
        path,
        element: (
          <>
            <title>{documentTitle(title)}</title>
            <Page />
          </>
        ),
      })),
      { path: '*', element: <NotFound /> },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routeObjects));
  return <RouterProvider router={router} />;
}
