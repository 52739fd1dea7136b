import { Loader2 } from 'lucide-react';
import { PageHeader } from '../../components/page-header.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { describeApiError } from '../../lib/api.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useGetUserQuery } from '../../lib/user-api.ts';
import { EmailHistory } from '../deliveries/index.ts';
import { ApiKeysSection } from './api-keys-section.tsx';
import { ChangeEmailForm } from './change-email-form.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { DeleteAccount } from './delete-account.tsx';
import { EmailAlertsForm } from './email-alerts-form.tsx';
import { FeedSources } from './feed-sources.tsx';
import { ProfileForm } from './profile-form.tsx';
import { useDeleteAccount } from './use-delete-account.ts';

export function SettingsPage() {
  usePageTitle('Settings');
  const { deleting, remove } = useDeleteAccount();
  const user = useGetUserQuery(undefined, { skip: deleting });
  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Settings"
        description="Your profile, email alerts, sources, API keys and account."
      />
      {deleting ? (
        <div
          role="status"
          className="flex items-center gap-3 rounded-xl border bg-card p-6 text-sm"
        >
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Deleting your account and all its data…
        </div>
      ) : user.isLoading ? (
        <div className="grid gap-6" aria-busy="true">
          <Skeleton className="h-56" />
          <Skeleton className="h-48" />
        </div>
      ) : user.error || !user.data ? (
        <Alert variant="destructive">
          <p>{describeApiError(user.error)}</p>
          <Button className="mt-3" size="sm" variant="outline" onClick={() => void user.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <div className="grid grid-cols-1 gap-6">
          <Section title="Profile" description="How Earshot greets you.">
            <ProfileForm user={user.data} />
          </Section>
          <Section
            title="Email address"
            description="Your sign-in name and where alerts go. A new address is used once you confirm it."
          >
            <ChangeEmailForm user={user.data} />
          </Section>
          <Section title="Email alerts" description="When Earshot emails you about new matches.">
            <EmailAlertsForm user={user.data} />
          </Section>
          <Section
            title="Emails sent"
            description="The last 100 emails Earshot sent you or tried to: sent, deferred, failed, and why."
          >
            <EmailHistory />
          </Section>
          <Section
            title="Sources"
            description="Feeds and Discourse forums you add by URL. Only your monitors see their items."
          >
            <FeedSources />
          </Section>
          <Section title="Password" description="Changing it signs you out everywhere else.">
            <ChangePasswordForm />
          </Section>
          <Section
            title="API keys"
            description="Let scripts, Zapier or an AI assistant read your matches (and, with write, change monitors) with Authorization: Bearer esk_…. API docs: /docs/api."
          >
            <ApiKeysSection />
          </Section>
          <Section
            title="Delete account"
            description="Remove your account, your monitors and every match, for good."
          >
            <DeleteAccount email={user.data.email} onConfirm={() => void remove()} />
          </Section>
        </div>
      )}
    </div>
  );
}

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
