import { Radar } from 'lucide-react';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';

export function MonitorsPage() {
  return (
    <>
      <PageHeader title="Monitors" description="The words Earshot listens for on your behalf." />
      <EmptyState icon={Radar} title="No monitors yet">
        Monitors are the words, phrases and queries Earshot watches Hacker News, Reddit and Lobsters
        for. Creating them arrives with the next release.
      </EmptyState>
    </>
  );
}
