import { Radar } from 'lucide-react';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { QueryHelp } from './query-help.tsx';

export function MonitorsPage() {
  return (
    <div className="max-w-4xl">
      <PageHeader title="Monitors" description="The words Earshot listens for on your behalf." />
      <div className="flex flex-col gap-6">
        <EmptyState icon={Radar} title="No monitors yet">
          Monitors are the words, phrases and queries Earshot watches Hacker News, Reddit and
          Lobsters for. Creating them arrives with the next release; here is the language they will
          speak.
        </EmptyState>
        <QueryHelp />
      </div>
    </div>
  );
}
