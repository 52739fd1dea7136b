import { useAppSelector } from '../../app/hooks.ts';
import { PageHeader } from '../../components/page-header.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';

export function SettingsPage() {
  const { firstName, lastName, email } = useAppSelector((state) => state.session);
  return (
    <>
      <PageHeader title="Settings" description="Your profile, email alerts and account." />
      <Card>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>How Earshot greets you.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
            <dt className="text-muted-foreground">Name</dt>
            <dd>{[firstName, lastName].filter(Boolean).join(' ') || '—'}</dd>
            <dt className="text-muted-foreground">Email</dt>
            <dd>{email}</dd>
          </dl>
        </CardContent>
      </Card>
    </>
  );
}
