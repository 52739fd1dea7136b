import { useId } from 'react';
import { QUERY_HELP } from '../../../shared/query-help.ts';

/**
 * The query language for users (docs/product.md, "The query language"), from
 * src/shared/query-help.ts.
 */
export function QueryHelp() {
  // Unique: the help shows on the page and again in the monitor dialog.
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border bg-card p-6 shadow-sm">
      <h2 id={headingId} className="text-base font-semibold">
        How to write a query
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Plain words work as you would expect. These are there when you need more.
      </p>
      {/* On a phone the table scrolls sideways; focusable so a keyboard can scroll it too. */}
      <section
        aria-label="Query syntax"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
        className="mt-4 overflow-x-auto rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Write
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                To find
              </th>
              <th scope="col" className="py-2 font-medium">
                Example
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {QUERY_HELP.map((row) => (
              <tr key={row.syntax} className="align-top">
                <td className="py-2.5 pr-4 font-mono text-xs whitespace-nowrap">{row.syntax}</td>
                <td className="py-2.5 pr-4 text-muted-foreground">{row.meaning}</td>
                <td className="py-2.5">
                  <code className="rounded bg-muted px-1.5 py-0.5 text-xs whitespace-nowrap">
                    {row.example}
                  </code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}
