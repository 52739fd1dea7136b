import { Tags } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { Match, UpdateMatchSignalsBody } from '../../../shared/match.ts';
import {
  INTENT_LABELS,
  INTENTS,
  type Intent,
  LANGUAGE_PATTERN,
  SENTIMENTS,
} from '../../../shared/signals.ts';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/select.tsx';
import { SENTIMENT_LABELS } from './signal-chips.tsx';

/**
 * Corrects an alert's hints (its intents, tone and language): what Earshot read is the starting
 * point; saving sends the whole correction (`PUT /api/matches/:id/signals`).
 */
export function CorrectSignalsDialog({
  match,
  title,
  onSave,
}: {
  match: Pick<Match, 'intents' | 'sentiment' | 'language'>;
  title: string;
  onSave: (signals: UpdateMatchSignalsBody) => Promise<boolean>;
}) {
  const ids = { tone: useId(), language: useId() };
  const [open, setOpen] = useState(false);
  const [intents, setIntents] = useState<Intent[]>([...match.intents]);
  const [sentiment, setSentiment] = useState(match.sentiment ?? '');
  const [language, setLanguage] = useState(match.language ?? '');
  const [saving, setSaving] = useState(false);
  const code = language.trim().toLowerCase();
  const languageOk = code === '' || LANGUAGE_PATTERN.test(code);

  function reset(next: boolean) {
    setOpen(next);
    if (!next) return;
    setIntents([...match.intents]);
    setSentiment(match.sentiment ?? '');
    setLanguage(match.language ?? '');
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!languageOk) return;
    setSaving(true);
    const saved = await onSave({
      intents: INTENTS.filter((intent) => intents.includes(intent)),
      sentiment: sentiment === '' ? null : (sentiment as (typeof SENTIMENTS)[number]),
      language: code === '' ? null : code,
    });
    setSaving(false);
    if (saved) setOpen(false);
  }

  return (
    <Dialog open={open} onOpenChange={reset}>
      <DialogTrigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className="h-6 px-2 text-xs"
          aria-label={`Correct the hints: ${title}`}
        >
          <Tags aria-hidden="true" /> Correct
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogTitle>Correct the hints</DialogTitle>
        <DialogDescription>
          Earshot read these from the text. Your correction replaces them on this alert.
        </DialogDescription>
        <form className="grid gap-4" onSubmit={(event) => void save(event)}>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">What it is doing</legend>
            <div className="grid grid-cols-2 gap-2">
              {INTENTS.map((intent) => (
                <label key={intent} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-[var(--primary)]"
                    checked={intents.includes(intent)}
                    onChange={(event) =>
                      setIntents((list) =>
                        event.target.checked
                          ? [...list, intent]
                          : list.filter((item) => item !== intent),
                      )
                    }
                  />
                  {INTENT_LABELS[intent]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid grid-cols-2 gap-3">
            <div className="grid gap-1.5">
              <Label htmlFor={ids.tone}>Tone</Label>
              <Select
                id={ids.tone}
                value={sentiment}
                onChange={(event) => setSentiment(event.target.value)}
              >
                <option value="">Not read</option>
                {SENTIMENTS.map((value) => (
                  <option key={value} value={value}>
                    {SENTIMENT_LABELS[value]}
                  </option>
                ))}
              </Select>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.language}>Language code</Label>
              <Input
                id={ids.language}
                value={language}
                onChange={(event) => setLanguage(event.target.value)}
                placeholder="en"
                maxLength={2}
                aria-invalid={!languageOk}
                aria-describedby={languageOk ? undefined : `${ids.language}-error`}
              />
              {languageOk ? null : (
                <p id={`${ids.language}-error`} className="text-xs text-destructive">
                  Two letters, like en or de.
                </p>
              )}
            </div>
          </div>
          <div className="flex justify-end">
            <Button type="submit" disabled={saving || !languageOk} aria-busy={saving}>
              Save
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
