import { cn } from '../../lib/cn.ts';
import { type QueryTokenKind, tokenizeQuery } from '../../lib/query-tokens.ts';

const TOKEN_CLASSES: Record<QueryTokenKind, string> = {
  word: 'text-foreground',
  phrase: 'text-emerald-700 dark:text-emerald-300',
  operator: 'font-semibold text-primary',
  negation: 'font-semibold text-destructive',
  field: 'text-sky-700 dark:text-sky-300',
  prefix: 'text-amber-700 dark:text-amber-300',
  paren: 'text-muted-foreground',
  space: '',
};

/**
 * A monitor query with its parts coloured (phrases, operators, negations, fields, prefixes).
 * Each part is a text node; `errorAt` underlines the character the server's parser refused.
 */
export function QueryText({
  query,
  errorAt,
  className,
}: {
  query: string;
  errorAt?: number | undefined;
  className?: string;
}) {
  let offset = 0;
  return (
    <code className={cn('font-mono text-sm wrap-anywhere whitespace-pre-wrap', className)}>
      {tokenizeQuery(query).map((token) => {
        const start = offset;
        offset += token.text.length;
        const key = `${start}-${token.kind}`;
        if (errorAt === undefined || errorAt < start || errorAt >= offset) {
          return (
            <span key={key} className={TOKEN_CLASSES[token.kind]}>
              {token.text}
            </span>
          );
        }
        const at = errorAt - start;
        return (
          <span key={key} className={TOKEN_CLASSES[token.kind]}>
            {token.text.slice(0, at)}
            <span className="rounded-sm bg-destructive/20 text-destructive underline decoration-wavy">
              {token.text[at]}
            </span>
            {token.text.slice(at + 1)}
          </span>
        );
      })}
      {errorAt !== undefined && errorAt >= query.length ? (
        <span
          className="ml-0.5 inline-block rounded-sm bg-destructive/20 px-1 text-destructive"
          aria-hidden="true"
        >
          ␣
        </span>
      ) : null}
    </code>
  );
}
