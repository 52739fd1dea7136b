import { useId, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { FormError } from '../../components/form-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/select.tsx';
import { describeApiError } from '../../lib/api.ts';
import { type UserRecord, useUpdateUserMutation } from '../../lib/user-api.ts';
import { useSendTestEmailMutation } from './test-email-api.ts';

const MODES: { value: UserRecord['emailAlerts']; label: string; hint: string }[] = [
  {
    value: 'instant',
    label: 'Instantly',
    hint: 'New matches gathered for up to a minute, then one email.',
  },
  { value: 'hourly', label: 'Hourly digest', hint: 'At most one email an hour.' },
  { value: 'daily', label: 'Daily digest', hint: 'One email at 08:00 in your time zone.' },
  { value: 'off', label: 'Off', hint: 'No email; matches still appear in your dashboard.' },
];

function timeZones(current: string): string[] {
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

export function EmailAlertsForm({ user }: { user: UserRecord }) {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // A record still on the default zone takes this device's zone as the suggestion to save.
  const suggested = user.timezone === 'UTC' && browserZone && browserZone !== 'UTC';
  const [mode, setMode] = useState(user.emailAlerts);
  const [timezone, setTimezone] = useState(suggested ? browserZone : user.timezone);
  const [updateUser, { isLoading }] = useUpdateUserMutation();
  const [sendTestEmail, testEmail] = useSendTestEmailMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const zones = useMemo(() => timeZones(timezone), [timezone]);
  const zoneId = useId();
  const quietId = useId();
  const [quiet, setQuiet] = useState(user.quietHours !== null);
  const [quietStart, setQuietStart] = useState(user.quietHours?.start ?? '22:00');
  const [quietEnd, setQuietEnd] = useState(user.quietHours?.end ?? '07:00');
  const quietHours = quiet ? { start: quietStart, end: quietEnd } : null;
  const changed =
    mode !== user.emailAlerts ||
    timezone !== user.timezone ||
    JSON.stringify(quietHours) !== JSON.stringify(user.quietHours);

  const save = async () => {
    setProblem(null);
    const saved = await updateUser({ emailAlerts: mode, timezone, quietHours });
    if (saved.error) setProblem(describeApiError(saved.error));
    else toast.success('Email alerts saved.');
  };

  const test = async () => {
    setProblem(null);
    const sent = await sendTestEmail();
    if (sent.error) setProblem(describeApiError(sent.error));
    else toast.success(`Test email sent to ${sent.data.to}. It should arrive within a minute.`);
  };

  return (
    <form
      className="grid gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <FormError message={problem} />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Send me an email</legend>
        {MODES.map((option) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-start gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent/60"
          >
            <input
              type="radio"
              name="emailAlerts"
              value={option.value}
              checked={mode === option.value}
              onChange={() => setMode(option.value)}
              className="mt-0.5 accent-[var(--color-primary)]"
            />
            <span>
              <span className="block text-sm font-medium">{option.label}</span>
              <span className="block text-xs text-muted-foreground">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid gap-2 sm:max-w-sm">
        <Label htmlFor={zoneId}>Time zone</Label>
        <Select id={zoneId} value={timezone} onChange={(event) => setTimezone(event.target.value)}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </Select>
        {suggested && timezone === browserZone ? (
          <p className="text-xs text-muted-foreground">
            Filled in from this device. Save to use it for daily digests.
          </p>
        ) : null}
        {browserZone && browserZone !== timezone ? (
          <button
            type="button"
            className="justify-self-start text-xs text-primary hover:underline"
            onClick={() => setTimezone(browserZone)}
          >
            Use this device’s time zone ({browserZone.replaceAll('_', ' ')})
          </button>
        ) : null}
      </div>
      <fieldset className="grid gap-2" data-testid="quiet-hours">
        <legend className="mb-1 text-sm font-medium">Quiet hours</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={quiet}
            onChange={(event) => setQuiet(event.target.checked)}
            className="accent-[var(--color-primary)]"
          />
          Hold instant and hourly emails during quiet hours, then send one email
        </label>
        {quiet ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Label htmlFor={`${quietId}-start`}>From</Label>
            <Input
              id={`${quietId}-start`}
              type="time"
              required
              value={quietStart}
              onChange={(event) => setQuietStart(event.target.value)}
              className="w-32"
            />
            <Label htmlFor={`${quietId}-end`}>to</Label>
            <Input
              id={`${quietId}-end`}
              type="time"
              required
              value={quietEnd}
              onChange={(event) => setQuietEnd(event.target.value)}
              className="w-32"
            />
            <span className="text-xs text-muted-foreground">in your time zone</span>
          </div>
        ) : null}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={!changed || isLoading}>
          Save email alerts
        </Button>
        <Button
          type="button"
          variant="outline"
          disabled={testEmail.isLoading}
          aria-busy={testEmail.isLoading}
          onClick={() => void test()}
        >
          Send me a test email
        </Button>
      </div>
    </form>
  );
}
