import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  MONITOR_DELIVERIES,
  MONITOR_NAME_MAX_LENGTH,
  MONITOR_QUERY_MAX_LENGTH,
  type Monitor,
  type MonitorDelivery,
} from '../../../shared/monitor.ts';
import { SOURCE_NAMES } from '../../../shared/sources.ts';
import { FormError } from '../../components/form-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/select.tsx';
import { describeApiError } from '../../lib/api.ts';
import { MonitorPreviewPanel } from './monitor-preview.tsx';
import { QueryCoach, ThresholdEffect } from './monitor-relevance.tsx';
import {
  useCreateMonitorMutation,
  useMonitorCoachQuery,
  useUpdateMonitorMutation,
} from './monitors-api.ts';
import { QueryField } from './query-field.tsx';
import { QueryHelp } from './query-help.tsx';
import { SitesField } from './sites-field.tsx';
import { useQueryCheck } from './use-query-check.ts';

const monitorFormSchema = z.object({
  query: z
    .string()
    .trim()
    .min(1, 'Write a query, e.g. pglite or "open source".')
    .max(MONITOR_QUERY_MAX_LENGTH, `Use at most ${MONITOR_QUERY_MAX_LENGTH} characters.`),
  name: z
    .string()
    .trim()
    .max(MONITOR_NAME_MAX_LENGTH, `Use at most ${MONITOR_NAME_MAX_LENGTH} characters.`),
  sources: z.array(z.enum(SOURCE_NAMES)).min(1, 'Choose at least one site.'),
  /** A percentage, 0 to 100; empty: off. */
  relevanceThreshold: z
    .string()
    .trim()
    .refine(
      (value) => value === '' || (/^\d{1,3}$/.test(value) && Number(value) <= 100),
      'Write a whole number from 0 to 100, or leave it empty for off.',
    ),
  delivery: z.enum(MONITOR_DELIVERIES),
  spikeAlerts: z.boolean(),
});

/** The rhythms a monitor can follow (docs/product.md, "Delivery"). */
const DELIVERY_LABELS: Record<MonitorDelivery, string> = {
  default: 'As in my settings',
  instant: 'Instantly',
  hourly: 'Hourly digest',
  daily: 'Daily digest (08:00)',
  weekly: 'Weekly digest (Monday 08:00)',
  feed: 'Feed only: no email or webhook',
};
type MonitorFormValues = z.infer<typeof monitorFormSchema>;

/**
 * Create or edit a monitor: the query checked as it is typed (QueryField), the sites with how
 * each is doing (SitesField), and what the query would have found (MonitorPreviewPanel).
 */
export function MonitorForm({
  monitor,
  initialQuery,
  onDone,
}: {
  monitor?: Monitor | undefined;
  initialQuery: string;
  onDone: () => void;
}) {
  const [create] = useCreateMonitorMutation();
  const [update] = useUpdateMonitorMutation();
  const form = useForm<MonitorFormValues>({
    resolver: zodResolver(monitorFormSchema),
    defaultValues: {
      query: monitor?.query ?? initialQuery,
      name: monitor?.name ?? '',
      sources: monitor?.sources ?? [...SOURCE_NAMES],
      relevanceThreshold:
        monitor?.relevanceThreshold != null
          ? String(Math.round(monitor.relevanceThreshold * 100))
          : '',
      delivery: monitor?.delivery ?? 'default',
      spikeAlerts: monitor?.spikeAlerts ?? false,
    },
  });
  const coach = useMonitorCoachQuery(monitor?.id ?? '', {
    skip: !monitor,
    refetchOnMountOrArgChange: true,
  });
  const { errors, isSubmitting } = form.formState;
  const [query, sources, thresholdText] = useWatch({
    control: form.control,
    name: ['query', 'sources', 'relevanceThreshold'],
  });
  const threshold = /^\d{1,3}$/.test(thresholdText.trim())
    ? Math.min(100, Number(thresholdText.trim())) / 100
    : null;
  const deliveryId = useId();
  const check = useQueryCheck(query, sources);

  const onSubmit = form.handleSubmit(async ({ relevanceThreshold, ...rest }) => {
    const values = {
      ...rest,
      relevanceThreshold: relevanceThreshold === '' ? null : Number(relevanceThreshold) / 100,
    };
    const result = monitor
      ? await update({ id: monitor.id, changes: values })
      : await create(values);
    if ('error' in result && result.error) {
      form.setError('root', { message: describeApiError(result.error) });
      return;
    }
    toast.success(monitor ? 'Monitor saved' : 'Monitor created: listening now');
    onDone();
  });

  return (
    <form onSubmit={onSubmit} className="grid grid-cols-1 gap-5" noValidate>
      <QueryField
        registration={form.register('query')}
        query={query}
        problem={check.problem}
        error={errors.query?.message}
      />
      <Field
        label="Name (optional)"
        placeholder="Our product"
        maxLength={MONITOR_NAME_MAX_LENGTH}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <SitesField registration={form.register('sources')} error={errors.sources?.message} />
      <div className="grid gap-2">
        <Field
          label="Relevance threshold, % (optional)"
          placeholder="Off"
          inputMode="numeric"
          hint="Alerts scored under this stay in the feed under Low relevance, but are not emailed or sent to the webhook."
          error={errors.relevanceThreshold?.message}
          {...form.register('relevanceThreshold')}
        />
        {monitor ? <ThresholdEffect coach={coach.data} threshold={threshold} /> : null}
      </div>
      {monitor ? (
        <QueryCoach
          monitorId={monitor.id}
          onApplied={(applied) => form.setValue('query', applied, { shouldDirty: false })}
        />
      ) : null}
      <div className="grid gap-2 sm:max-w-sm">
        <Label htmlFor={deliveryId}>Alerts for this monitor</Label>
        <Select id={deliveryId} {...form.register('delivery')}>
          {MONITOR_DELIVERIES.map((value) => (
            <option key={value} value={value}>
              {DELIVERY_LABELS[value]}
            </option>
          ))}
        </Select>
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 accent-[var(--color-primary)]"
          {...form.register('spikeAlerts')}
        />
        <span>
          Email me when mentions spike
          <span className="block text-xs text-muted-foreground">
            Today's matches pass three times the usual (the median of the last 14 days), at least
            10; once a day at most, naming the busiest threads.
          </span>
        </span>
      </label>
      <MonitorPreviewPanel query={query} sources={sources} check={check} />
      <details className="rounded-lg border">
        <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-medium">
          Query syntax and examples
        </summary>
        <div className="px-1 pb-1">
          <QueryHelp />
        </div>
      </details>
      <FormError message={errors.root?.message} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button
          type="submit"
          disabled={isSubmitting || Boolean(check.problem)}
          aria-busy={isSubmitting}
        >
          {isSubmitting ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {monitor ? 'Save changes' : 'Create monitor'}
        </Button>
      </div>
    </form>
  );
}
