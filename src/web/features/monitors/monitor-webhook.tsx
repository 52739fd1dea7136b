import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { WebhookKindName } from '../../../shared/webhook.ts';
import { FormError } from '../../components/form-parts.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/select.tsx';
import { describeApiError } from '../../lib/api.ts';
import {
  useSetMonitorWebhookMutation,
  useTestMonitorWebhookMutation,
} from './monitor-webhook-api.ts';
import { useListMonitorsQuery } from './monitors-api.ts';

const KINDS: { value: WebhookKindName; label: string; placeholder: string }[] = [
  { value: 'slack', label: 'Slack', placeholder: 'https://hooks.slack.com/services/…' },
  { value: 'discord', label: 'Discord', placeholder: 'https://discord.com/api/webhooks/…' },
  { value: 'json', label: 'JSON (signed)', placeholder: 'https://example.com/earshot-hook' },
];

/**
 * A monitor's webhook (docs/webhooks.md): kind and address, save or remove, send a test, the
 * signing secret for JSON, and, when repeated failures paused it, why.
 */
export function MonitorWebhookSettings({ monitorId }: { monitorId: string }) {
  // Read from the list, so a save (which refetches it) shows at once.
  const { webhook } = useListMonitorsQuery(undefined, {
    selectFromResult: ({ data }) => ({
      webhook: data?.find((monitor) => monitor.id === monitorId)?.webhook ?? null,
    }),
  });
  const [kind, setKind] = useState<WebhookKindName>(webhook?.kind ?? 'slack');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [save, saving] = useSetMonitorWebhookMutation();
  const [test, testing] = useTestMonitorWebhookMutation();
  const kindId = useId();
  const urlId = useId();
  const changed = !webhook || webhook.kind !== kind || webhook.url !== url.trim();

  const submit = async () => {
    setProblem(null);
    const result = await save({ id: monitorId, webhook: { kind, url: url.trim() } });
    if (result.error) setProblem(describeApiError(result.error));
    else toast.success(webhook?.paused ? 'Webhook saved and resumed.' : 'Webhook saved.');
  };
  const remove = async () => {
    setProblem(null);
    const result = await save({ id: monitorId, webhook: null });
    if (result.error) setProblem(describeApiError(result.error));
    else {
      setUrl('');
      toast.success('Webhook removed.');
    }
  };
  const sendTest = async () => {
    setProblem(null);
    const result = await test(monitorId);
    if (result.error) setProblem(describeApiError(result.error));
    else if (result.data.delivered) toast.success('Test sent: the webhook took it.');
    else setProblem(result.data.error ?? 'The webhook did not take the test.');
  };

  return (
    <form
      className="grid gap-4"
      aria-label="Webhook"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {webhook?.paused ? (
        <Alert variant="destructive" data-testid="webhook-paused">
          <p className="font-medium">This webhook is paused.</p>
          <p>{webhook.pausedReason}</p>
        </Alert>
      ) : null}
      <FormError message={problem} />
      <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
        <div className="grid gap-2">
          <Label htmlFor={kindId}>Send to</Label>
          <Select
            id={kindId}
            value={kind}
            onChange={(event) => setKind(event.target.value as WebhookKindName)}
          >
            {KINDS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={urlId}>Webhook URL</Label>
          <Input
            id={urlId}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={KINDS.find((option) => option.value === kind)?.placeholder}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        </div>
      </div>
      {webhook?.kind === 'json' ? (
        <p className="text-xs text-muted-foreground">
          Signing secret (verify the <code>Earshot-Signature</code> header with it):{' '}
          <code className="break-all rounded bg-muted px-1 py-0.5" data-testid="webhook-secret">
            {webhook.secret}
          </code>
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button
          type="submit"
          disabled={saving.isLoading || url.trim() === '' || (!changed && !webhook?.paused)}
        >
          {webhook?.paused ? 'Save and resume' : 'Save webhook'}
        </Button>
        {webhook ? (
          <>
            <Button
              type="button"
              variant="outline"
              disabled={testing.isLoading || changed}
              aria-busy={testing.isLoading}
              onClick={() => void sendTest()}
            >
              Send a test
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={saving.isLoading}
              onClick={() => void remove()}
            >
              Remove
            </Button>
          </>
        ) : null}
      </div>
    </form>
  );
}
