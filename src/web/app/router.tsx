import { createBrowserRouter, Navigate } from 'react-router';
import { AlertsPage } from '../features/alerts/alerts-page.tsx';
import { LoginPage } from '../features/auth/login-page.tsx';
import { HomePage } from '../features/home/home-page.tsx';
import { MonitorsPage } from '../features/monitors/monitors-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { paths } from '../lib/paths.ts';
import { DashboardLayout } from './dashboard-layout.tsx';
import { NotFoundPage, RouteError } from './route-error.tsx';

export function createRouter() {
  return createBrowserRouter([
    {
      errorElement: <RouteError />,
      children: [
        { path: paths.home.path, element: <HomePage /> },
        { path: paths.login.path, element: <LoginPage /> },
        {
          path: '/dashboard',
          element: <DashboardLayout />,
          errorElement: <RouteError />,
          children: [
            { index: true, element: <Navigate to={paths.dashboard.monitors.href()} replace /> },
            { path: paths.dashboard.monitors.path, element: <MonitorsPage /> },
            { path: paths.dashboard.alerts.path, element: <AlertsPage /> },
            { path: paths.dashboard.settings.path, element: <SettingsPage /> },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
