import type { z } from 'zod';
import { SOURCE_NAMES, type SourceName } from '../shared/sources.ts';
import { blueskyPlugin } from './bluesky/plugin.ts';
import { devtoPlugin } from './devto/plugin.ts';
import { feedsPlugin } from './feeds/plugin.ts';
import { githubPlugin } from './github/plugin.ts';
import { hackerNewsPlugin } from './hacker-news/plugin.ts';
import { lobstersPlugin } from './lobsters/plugin.ts';
import { mastodonPlugin } from './mastodon/plugin.ts';
import type { SourceContext } from './plugin.ts';
import { redditPlugin } from './reddit/plugin.ts';
import type { ReplaySite } from './replay-site.ts';
import type { Source } from './source.ts';
import { stackoverflowPlugin } from './stackoverflow/plugin.ts';

/**
 * Every site's plugin, one line each, in the order of the descriptors (src/shared/sources.ts).
 * Adding a site: its folder with a `plugin.ts`, its descriptor, and a line here.
 */
export const SOURCE_PLUGINS = [
  hackerNewsPlugin,
  redditPlugin,
  lobstersPlugin,
  devtoPlugin,
  mastodonPlugin,
  githubPlugin,
  feedsPlugin,
  blueskyPlugin,
  stackoverflowPlugin,
] as const;

type AnyPlugin = (typeof SOURCE_PLUGINS)[number];
type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (
  arg: infer I,
) => void
  ? I
  : never;

/** Every site's environment variables, for the one configuration schema (src/config/env.ts). */
export const SOURCE_SETTINGS = Object.assign(
  {},
  ...SOURCE_PLUGINS.map((plugin) => plugin.settings),
) as UnionToIntersection<AnyPlugin['settings']>;

/** The settings every plugin reads: the parsed configuration holds them all. */
export type SourcePluginSettings = z.output<z.ZodObject<typeof SOURCE_SETTINGS>> & {
  readonly SOURCES: readonly SourceName[];
};

const BY_NAME = new Map<string, AnyPlugin>(SOURCE_PLUGINS.map((plugin) => [plugin.name, plugin]));
if (SOURCE_PLUGINS.map((plugin) => plugin.name).join() !== SOURCE_NAMES.join()) {
  throw new Error('src/sources/registry.ts must list one plugin per descriptor, in order');
}

/** The sites whose replay lives in their folder, with it. */
export const REPLAY_SITES: readonly { readonly name: SourceName; readonly replay: ReplaySite }[] =
  SOURCE_PLUGINS.flatMap((plugin) =>
    'replay' in plugin && plugin.replay ? [{ name: plugin.name, replay: plugin.replay }] : [],
  );

/** What the worker and the health read of a plugin, for a configuration holding every site's settings. */
export type RegisteredSource = {
  readonly hasCredentials: (settings: SourcePluginSettings) => boolean;
  readonly pollSeconds: (settings: SourcePluginSettings) => number;
  /** Null for a site without one connector (the feeds users add, polled per feed). */
  readonly createSource:
    | ((settings: SourcePluginSettings, context: SourceContext) => Source)
    | null;
};

export function sourcePlugin(name: SourceName): RegisteredSource {
  // Each plugin reads only its own keys of the whole configuration.
  const plugin = BY_NAME.get(name) as unknown as {
    readonly hasCredentials?: (settings: SourcePluginSettings) => boolean;
    readonly createSource?: (settings: SourcePluginSettings, context: SourceContext) => Source;
  } & Pick<RegisteredSource, 'pollSeconds'>;
  const create = plugin.createSource;
  return {
    hasCredentials: (settings) => plugin.hasCredentials?.(settings) ?? true,
    pollSeconds: (settings) => plugin.pollSeconds(settings),
    createSource: create ? (settings, context) => create(settings, context) : null,
  };
}
