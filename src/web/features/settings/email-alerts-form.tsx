import { useId, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { FormError } from '../../components/form-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
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
  const changed = mode !== user.emailAlerts || timezone !== user.timezone;

  const save = async () => {
    setProblem(null);
    const saved = await updateUser({ emailAlerts: mode, timezone });
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
