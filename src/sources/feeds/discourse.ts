import { z } from 'zod';
import { htmlToText } from '../text/html-to-text.ts';
import { type FeedDocument, type FeedEntry, isoDate, NotAFeedError } from './feed-entry.ts';

/**
 * A Discourse forum through its JSON (docs/product.md, "Feeds by URL"): `/latest.json` lists the
 * topics, `/posts.json` the latest posts across the forum, `/t/<id>.json` one topic's posts and
 * `/about.json` names the forum. A topic is a post (`t<topic id>`); a topic's first post is the
 * same item (its text in full), and every later post a comment (`p<post id>`) of its topic whose
 * title is the topic's, the thread's title.
 */

/** The forum's root, from the address of one of its JSON answers. */
export function discourseRoot(address: string): string {
  const url = new URL(address);
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(
    /\/(?:latest|posts|about|t\/[^/]+(?:\/\d+)?)(?:\.json)?\/?$/u,
    '',
  );
  return url.href.replace(/\/$/u, '');
}

const topicSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string().optional(),
  created_at: z.string().nullish(),
  excerpt: z.string().nullish(),
  last_poster_username: z.string().nullish(),
});

const postSchema = z.object({
  id: z.number().int(),
  topic_id: z.number().int(),
  topic_title: z.string().nullish(),
  topic_slug: z.string().nullish(),
  post_number: z.number().int(),
  username: z.string().nullish(),
  created_at: z.string().nullish(),
  cooked: z.string().nullish(),
  hidden: z.boolean().nullish(),
  deleted_at: z.string().nullish(),
});
type DiscoursePost = z.infer<typeof postSchema>;

const latestSchema = z.object({
  topic_list: z.object({ topics: z.array(z.unknown()) }),
  users: z.array(z.object({ id: z.number(), username: z.string() })).optional(),
});
const postsSchema = z.object({ latest_posts: z.array(z.unknown()) });
const topicAnswerSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string().optional(),
  post_stream: z.object({ posts: z.array(z.unknown()) }),
});
const aboutSchema = z.object({ about: z.object({ title: z.string().nullish() }) });

/** Whether a JSON answer is one of Discourse's that this module reads. */
export function isDiscourseAnswer(json: unknown): boolean {
  return (
    latestSchema.safeParse(json).success ||
    postsSchema.safeParse(json).success ||
    topicAnswerSchema.safeParse(json).success ||
    aboutSchema.safeParse(json).success
  );
}

/** One Discourse answer to its entries (none for `/about.json`, which only names the forum). */
export function parseDiscourseAnswer(json: unknown, address: string): FeedDocument {
  const root = discourseRoot(address);
  const about = aboutSchema.safeParse(json);
  if (about.success) {
    const title = about.data.about.title?.trim();
    return { kind: 'discourse', title: title ? title : null, entries: [] };
  }
  const latest = latestSchema.safeParse(json);
  if (latest.success) {
    return {
      kind: 'discourse',
      title: null,
      entries: readEach(latest.data.topic_list.topics, topicSchema).map((topic) =>
        topicEntry(topic, root),
      ),
    };
  }
  const posts = postsSchema.safeParse(json);
  if (posts.success) {
    return {
      kind: 'discourse',
      title: null,
      entries: readEach(posts.data.latest_posts, postSchema).flatMap((post) =>
        postEntry(post, root, null),
      ),
    };
  }
  const topic = topicAnswerSchema.safeParse(json);
  if (topic.success) {
    const thread = { title: topic.data.title, slug: topic.data.slug ?? null };
    return {
      kind: 'discourse',
      title: null,
      entries: readEach(topic.data.post_stream.posts, postSchema).flatMap((post) =>
        postEntry(post, root, thread),
      ),
    };
  }
  throw new NotAFeedError('not a feed');
}

/** The records of a list that have the shape; the others are left out. */
function readEach<T>(records: readonly unknown[], schema: z.ZodType<T>): T[] {
  return records.flatMap((record) => {
    const parsed = schema.safeParse(record);
    return parsed.success ? [parsed.data] : [];
  });
}

const topicLink = (root: string, id: number, slug: string | null | undefined) =>
  `${root}/t/${slug ? `${encodeURIComponent(slug)}/` : ''}${id}`;

function topicEntry(topic: z.infer<typeof topicSchema>, root: string): FeedEntry {
  return {
    externalId: `t${topic.id}`,
    kind: 'post',
    title: topic.title.trim() || null,
    // Discourse cuts excerpts with an escaped ellipsis: HTML either way.
    body: topic.excerpt ? htmlToText(topic.excerpt) : '',
    permalink: topicLink(root, topic.id, topic.slug),
    author: null,
    parentExternalId: null,
    createdAt: isoDate(topic.created_at),
  };
}

function postEntry(
  post: DiscoursePost,
  root: string,
  thread: { readonly title: string; readonly slug: string | null } | null,
): FeedEntry[] {
  if (post.hidden || post.deleted_at) return [];
  const title = (thread?.title ?? post.topic_title ?? '').trim() || null;
  const slug = thread?.slug ?? post.topic_slug;
  const first = post.post_number === 1;
  return [
    {
      externalId: first ? `t${post.topic_id}` : `p${post.id}`,
      kind: first ? 'post' : 'comment',
      title,
      body: post.cooked ? htmlToText(post.cooked) : '',
      permalink: first
        ? topicLink(root, post.topic_id, slug)
        : `${topicLink(root, post.topic_id, slug)}/${post.post_number}`,
      author: post.username?.trim() || null,
      parentExternalId: first ? null : `t${post.topic_id}`,
      createdAt: isoDate(post.created_at),
    },
  ];
}
