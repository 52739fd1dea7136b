import type { z } from 'zod';
import type { SourceName } from '../shared/sources.ts';
import type { HttpClient } from './http/http-client.ts';
import type { ReplaySite } from './replay-site.ts';
import type { Source } from './source.ts';

/** What a plugin's connector gets from the worker besides its settings. */
export type SourceContext = {
  /** An HTTP client with the configured timeout, retries and Retry-After handling. */
  readonly http: HttpClient;
  /** What the monitors ask of the sites beyond their firehose (the worker reads it from them). */
  readonly interests?: SourceInterests;
  /** How soon a dropped stream is opened again (the connector's default when absent). */
  readonly streamRetryMs?: number;
};

/** What monitors ask a site to read besides what it reads for everyone. */
export type SourceInterests = {
  /** The GitHub repositories monitors name (`repo:owner/name`), lower case. */
  readonly repositories: () => Promise<readonly string[]>;
};

/**
 * One site's code, from its folder (`src/sources/<site>/plugin.ts`), listed once in
 * `src/sources/registry.ts`. What people see of the site (label, icon, colour, how-to) is its
 * descriptor in `src/shared/sources.ts`, which the browser reads too.
 */
export type SourcePlugin<Name extends SourceName, Shape extends z.ZodRawShape> = {
  readonly name: Name;
  /** The site's environment variables, merged into the one configuration schema. */
  readonly settings: Shape;
  /** A problem with the site's settings taken together (one line), or null. */
  readonly checkSettings?: (
    settings: z.output<z.ZodObject<Shape>>,
  ) => { readonly path: string[]; readonly message: string } | null;
  /**
   * Whether the site has what it needs to run (a credential): false shows it as "not
   * configured", with its descriptor's how-to, instead of failing. Absent: always.
   */
  readonly hasCredentials?: (settings: z.output<z.ZodObject<Shape>>) => boolean;
  readonly pollSeconds: (settings: z.output<z.ZodObject<Shape>>) => number;
  /** The site's replay (`npm run replay`, the demo, tests), under its own path prefix. */
  readonly replay?: ReplaySite;
  /**
   * The site's one connector. Absent for the feeds users add by URL, which the pipeline polls
   * per feed (`src/pipeline/poll-feeds.ts`) rather than as one source with one cursor.
   */
  readonly createSource?: (
    settings: z.output<z.ZodObject<Shape>>,
    context: SourceContext,
  ) => Source;
};

/** Types a plugin's settings from its schema. */
export const defineSourcePlugin = <const Name extends SourceName, Shape extends z.ZodRawShape>(
  plugin: SourcePlugin<Name, Shape>,
): SourcePlugin<Name, Shape> => plugin;
