import { createBrowserRouter, Navigate } from 'react-router';
import { HomePage } from '../features/home/home-page.tsx';
import { paths } from '../lib/paths.ts';
import { NotFoundPage, RouteError } from './route-error.tsx';

/**
 * Routes. The home page is in the main bundle so it paints at once; account pages and the
 * dashboard load on demand (with the identity SDK they need).
 */
export function createRouter() {
  return createBrowserRouter([
    {
      errorElement: <RouteError />,
      children: [
        { path: paths.home.path, element: <HomePage /> },
        {
          path: paths.login.path,
          lazy: async () => ({
            Component: (await import('../features/auth/login-page.tsx')).LoginPage,
          }),
        },
        {
          path: paths.signup.path,
          lazy: async () => ({
            Component: (await import('../features/auth/signup-page.tsx')).SignupPage,
          }),
        },
        {
          path: paths.confirm.path,
          lazy: async () => ({
            Component: (await import('../features/auth/confirm-page.tsx')).ConfirmPage,
          }),
        },
        {
          path: paths.forgotPassword.path,
          lazy: async () => ({
            Component: (await import('../features/auth/forgot-password-page.tsx'))
              .ForgotPasswordPage,
          }),
        },
        {
          path: paths.resetPassword.path,
          lazy: async () => ({
            Component: (await import('../features/auth/reset-password-page.tsx')).ResetPasswordPage,
          }),
        },
        {
          path: paths.feedback.path,
          lazy: async () => ({
            Component: (await import('../features/unsubscribe/feedback-page.tsx')).FeedbackPage,
          }),
        },
        {
          path: paths.unsubscribe.path,
          lazy: async () => ({
            Component: (await import('../features/unsubscribe/unsubscribe-page.tsx'))
              .UnsubscribePage,
          }),
        },
        {
          path: paths.mute.path,
          lazy: async () => ({
            Component: (await import('../features/mute/mute-page.tsx')).MutePage,
          }),
        },
        {
          path: paths.about.path,
          lazy: async () => ({
            Component: (await import('../features/about/about-page.tsx')).AboutPage,
          }),
        },
        {
          path: '/dashboard',
          lazy: async () => ({
            Component: (await import('./dashboard-layout.tsx')).DashboardLayout,
          }),
          errorElement: <RouteError />,
          children: [
            { index: true, element: <Navigate to={paths.dashboard.monitors.href()} replace /> },
            {
              path: paths.dashboard.monitors.path,
              lazy: async () => ({
                Component: (await import('../features/monitors/monitors-page.tsx')).MonitorsPage,
              }),
            },
            {
              path: paths.dashboard.alerts.path,
              lazy: async () => ({
                Component: (await import('../features/alerts/alerts-page.tsx')).AlertsPage,
              }),
            },
            {
              path: paths.dashboard.settings.path,
              lazy: async () => ({
                Component: (await import('../features/settings/settings-page.tsx')).SettingsPage,
              }),
            },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
