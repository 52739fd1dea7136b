import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { ApiKey, ApiKeyScope, CreatedApiKey } from '../../../shared/api-keys.ts';
import { MAX_API_KEYS_PER_USER } from '../../../shared/api-keys.ts';
import { FormError } from '../../components/form-parts.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { describeApiError } from '../../lib/api.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import {
  useCreateApiKeyMutation,
  useListApiKeysQuery,
  useRevokeApiKeyMutation,
} from './api-keys-api.ts';

const SCOPES: { value: ApiKeyScope; label: string }[] = [
  { value: 'read', label: 'Read: monitors, matches and stats' },
  { value: 'write', label: 'Write: also change monitors and mark matches' },
];

/** Settings → API keys: make a key (shown once, to copy), list them, revoke one. */
export function ApiKeysSection() {
  const keys = useListApiKeysQuery();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <div className="grid gap-5">
      {created ? <NewKey created={created} onDone={() => setCreated(null)} /> : null}
      <CreateKeyForm
        onCreated={setCreated}
        full={(keys.data?.length ?? 0) >= MAX_API_KEYS_PER_USER}
      />
      {keys.isLoading ? (
        <Skeleton className="h-16" />
      ) : keys.error ? (
        <FormError message={describeApiError(keys.error)} />
      ) : keys.data && keys.data.length > 0 ? (
        <ul className="grid gap-2" aria-label="API keys">
          {keys.data.map((key) => (
            <KeyRow key={key.id} apiKey={key} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No API keys yet.</p>
      )}
    </div>
  );
}

function CreateKeyForm({
  onCreated,
  full,
}: {
  onCreated: (key: CreatedApiKey) => void;
  full: boolean;
}) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [problem, setProblem] = useState<string | null>(null);
  const [createKey, { isLoading }] = useCreateApiKeyMutation();
  const nameId = useId();
  const scopeId = useId();
  return (
    <form
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      onSubmit={async (event) => {
        event.preventDefault();
        setProblem(null);
        const made = await createKey({ name, scope });
        if (made.error) setProblem(describeApiError(made.error));
        else {
          setName('');
          onCreated(made.data);
        }
      }}
    >
      <div className="sm:col-span-3">
        <FormError message={problem} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={nameId}>Name</Label>
        <Input
          id={nameId}
          value={name}
          maxLength={80}
          required
          placeholder="e.g. Zapier, my script"
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={scopeId}>Scope</Label>
        <Select
          id={scopeId}
          value={scope}
          onChange={(event) => setScope(event.target.value as ApiKeyScope)}
        >
          {SCOPES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" disabled={isLoading || full} aria-busy={isLoading}>
        Create key
      </Button>
      {full ? (
        <p className="text-sm text-muted-foreground sm:col-span-3">
          You have {MAX_API_KEYS_PER_USER} keys, the most one account may keep. Revoke one to add
          another.
        </p>
      ) : null}
    </form>
  );
}

function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
      toast.success('API key copied.');
    } catch {
      toast.error('The browser did not allow copying. Select the key and copy it by hand.');
    }
  };
  return (
    <Alert variant="success" role="status" data-testid="new-api-key">
      <p className="font-medium">
        Your new key “{created.name}”. Copy it now: it is not shown again.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="min-w-0 break-all rounded bg-card px-2 py-1 font-mono text-sm">
          {created.key}
        </code>
        <Button type="button" size="sm" variant="outline" onClick={() => void copy()}>
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </Alert>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const [confirming, setConfirming] = useState(false);
  const [revokeKey, { isLoading }] = useRevokeApiKeyMutation();
  const revoke = async () => {
    const done = await revokeKey(apiKey.id);
    if (done.error) toast.error(describeApiError(done.error));
    else toast.success(`“${apiKey.name}” revoked. Requests with it are refused from now on.`);
  };
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3"
      data-testid="api-key"
    >
      <div className="min-w-0 text-sm">
        <p className="font-medium">
          {apiKey.name} <span className="font-normal text-muted-foreground">· {apiKey.scope}</span>
        </p>
        <p className="text-muted-foreground">
          <code className="font-mono">{apiKey.prefix}…</code> · created{' '}
          {relativeTime(apiKey.createdAt)} ·{' '}
          {apiKey.lastUsedAt ? `last used ${relativeTime(apiKey.lastUsedAt)}` : 'never used'}
        </p>
      </div>
      {confirming ? (
        <div className="flex gap-2">
          <Button
            size="sm"
            variant="destructive"
            disabled={isLoading}
            onClick={() => void revoke()}
          >
            Revoke “{apiKey.name}”
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            Keep
          </Button>
        </div>
      ) : (
        <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
          Revoke
        </Button>
      )}
    </li>
  );
}
