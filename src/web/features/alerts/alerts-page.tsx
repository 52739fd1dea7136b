import { Bell } from 'lucide-react';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';

export function AlertsPage() {
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Every post and comment your monitors caught, newest first."
      />
      <EmptyState icon={Bell} title="Nothing heard yet">
        When a monitor matches a new post or comment, it appears here within seconds.
      </EmptyState>
    </>
  );
}
