import type { ReactNode } from 'react';
import {
  INTENT_LABELS,
  INTENTS,
  type Intent,
  SENTIMENTS,
  type Sentiment,
} from '../../../shared/signals.ts';
import { Button } from '../../components/ui/button.tsx';

/** What the app calls each sentiment. */
export const SENTIMENT_LABELS: Readonly<Record<Sentiment, string>> = {
  positive: 'Positive',
  neutral: 'Neutral',
  negative: 'Negative',
};

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** "German" for "de"; the code itself when the browser does not know it. */
export function languageName(code: string): string {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export type SignalChoice = {
  intent?: Intent | undefined;
  sentiment?: Sentiment | undefined;
  lang?: string | undefined;
};

/**
 * The feed's filter chips for the alerts' signals (docs/product.md, "Matches and alerts"): one
 * intent, one tone and one language at a time; a pressed chip pressed again lets go. The
 * languages offered are those of the alerts shown, and the one chosen.
 */
export function SignalChips({
  choice,
  languages,
  onChange,
}: {
  choice: SignalChoice;
  languages: readonly string[];
  onChange: (changes: Partial<Record<keyof SignalChoice, string>>) => void;
}) {
  const offered = [...new Set([...(choice.lang ? [choice.lang] : []), ...languages])].sort();
  return (
    <div className="grid gap-2 text-sm" data-testid="signal-chips">
      <ChipGroup
        label="Intent"
        options={INTENTS.map((intent) => [intent, INTENT_LABELS[intent]])}
        chosen={choice.intent}
        onChoose={(intent) => onChange({ intent })}
      />
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <ChipGroup
          label="Tone"
          options={SENTIMENTS.map((sentiment) => [sentiment, SENTIMENT_LABELS[sentiment]])}
          chosen={choice.sentiment}
          onChoose={(sentiment) => onChange({ sentiment })}
        />
        {offered.length > 0 ? (
          <ChipGroup
            label="Language"
            options={offered.map((code) => [code, languageName(code)])}
            chosen={choice.lang}
            onChoose={(lang) => onChange({ lang })}
          />
        ) : null}
      </div>
    </div>
  );
}

function ChipGroup({
  label,
  options,
  chosen,
  onChoose,
}: {
  label: string;
  options: readonly (readonly [string, string])[];
  chosen: string | undefined;
  onChoose: (value: string) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-1.5">
      <legend className="float-left mr-1 text-xs font-medium text-muted-foreground">{label}</legend>
      {options.map(([value, text]) => (
        <Chip
          key={value}
          pressed={chosen === value}
          onClick={() => onChoose(chosen === value ? '' : value)}
        >
          {text}
        </Chip>
      ))}
    </fieldset>
  );
}

/** A small toggle button: pressed, it is filled. */
export function Chip({
  pressed,
  onClick,
  children,
  quiet = false,
}: {
  pressed: boolean;
  onClick: () => void;
  children: ReactNode;
  /** Lighter, for a control beside a heading. */
  quiet?: boolean;
}) {
  const on = quiet ? 'secondary' : 'default';
  return (
    <Button
      type="button"
      size="sm"
      variant={pressed ? on : quiet ? 'ghost' : 'outline'}
      className={quiet ? 'h-6 px-2' : 'h-7 rounded-full px-2.5'}
      aria-pressed={pressed}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}
