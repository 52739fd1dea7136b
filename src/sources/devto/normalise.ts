import { z } from 'zod';
import {
  describeIssue,
  type NormalisedItem,
  type NormaliseResult,
  skipped,
} from '../normalised-item.ts';
import { htmlToText } from '../text/html-to-text.ts';
import { markdownToText } from '../text/markdown-to-text.ts';

// DEV (Forem) API v1 shapes. Articles are as recorded (tests/fixtures/recorded/devto-*.json);
// comments were not recorded and follow Forem's published API reference (decision "DEV").

/** `/articles` gives `tag_list` as a list; `/articles/:id` as a comma-separated string. */
const tagsSchema = z
  .union([z.array(z.string()), z.string().transform((tags) => tags.split(','))])
  .transform((tags) => tags.map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== ''));

const userSchema = z.object({ username: z.string().min(1) }).passthrough();

const articleSchema = z.object({
  id: z.coerce.number().int().positive(),
  title: z.string(),
  description: z.string().nullish(),
  body_markdown: z.string().nullish(),
  body_html: z.string().nullish(),
  url: z.string().min(1),
  canonical_url: z.string().nullish(),
  published_at: z.string().nullish(),
  published_timestamp: z.string().nullish(),
  created_at: z.string().nullish(),
  tag_list: tagsSchema.optional(),
  tags: tagsSchema.optional(),
  user: userSchema.nullish(),
  comments_count: z.number().int().nonnegative().optional(),
});
export type DevtoArticle = z.infer<typeof articleSchema>;

export type DevtoComment = {
  readonly id_code: string;
  readonly created_at: string;
  readonly body_html: string;
  readonly user: { readonly username: string } | null;
  readonly children: readonly unknown[];
};

const commentSchema: z.ZodType<DevtoComment> = z.object({
  id_code: z.string().min(1),
  created_at: z.string(),
  body_html: z
    .string()
    .nullish()
    .transform((html) => html ?? ''),
  user: userSchema.nullish().transform((user) => user ?? null),
  children: z.array(z.unknown()).default([]),
});

/**
 * DEV's HTML to text, a link keeping its address after its words (as Markdown links do), so that
 * a query for `example.com` finds it.
 */
export function devtoHtmlToText(html: string): string {
  return htmlToText(
    html.replace(
      /<a\b[^>]*?\bhref\s*=\s*"(https?:[^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/giu,
      (whole, href: string, inner: string) => (inner.includes(href) ? whole : `${inner} (${href})`),
    ),
  );
}

const isoOf = (text: string | null | undefined): string | null => {
  if (!text) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
};

/** The article's id as Earshot stores it. */
export const articleExternalId = (id: number): string => String(id);
/** A comment's id as Earshot stores it: `c_` and its `id_code`, apart from the articles' numbers. */
export const commentExternalId = (idCode: string): string => `c_${idCode}`;

/** The article's id, or null when the record is not one. */
export function devtoArticleId(raw: unknown): number | null {
  const parsed = articleSchema.safeParse(raw);
  return parsed.success ? parsed.data.id : null;
}

/** Parses an article of `/articles/latest` (or `/articles/:id`), or says why not. */
export function parseDevtoArticle(
  raw: unknown,
): { ok: true; article: DevtoArticle } | { ok: false; detail: string } {
  const parsed = articleSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, article: parsed.data }
    : { ok: false, detail: describeIssue(parsed.error) };
}

/**
 * A DEV article. The text is its Markdown, else its HTML, else its description (the list of
 * latest articles carries only the description). Its first tag, DEV's main one, is the
 * community; a canonical URL elsewhere (a cross-post) is the link.
 */
export function normaliseDevtoArticle(raw: unknown): NormaliseResult {
  const parsed = parseDevtoArticle(raw);
  if (!parsed.ok) return skipped('invalid', parsed.detail);
  const article = parsed.article;
  const createdAt =
    isoOf(article.published_at) ?? isoOf(article.published_timestamp) ?? isoOf(article.created_at);
  if (createdAt === null) return skipped('invalid', 'published_at: not a date');
  const body = article.body_markdown
    ? markdownToText(article.body_markdown)
    : article.body_html
      ? devtoHtmlToText(article.body_html)
      : (article.description ?? '').trim();
  const tags = article.tag_list ?? article.tags ?? [];
  return {
    status: 'item',
    item: {
      source: 'devto',
      externalId: articleExternalId(article.id),
      kind: 'post',
      title: article.title.trim(),
      body,
      url: crossPostUrl(article.url, article.canonical_url),
      permalink: article.url,
      author: article.user?.username ?? null,
      community: tags[0] ?? null,
      parentExternalId: null,
      threadTitle: null,
      createdAt,
    },
  };
}

function crossPostUrl(url: string, canonical: string | null | undefined): string | null {
  if (!canonical || !URL.canParse(canonical) || !URL.canParse(url)) return null;
  return new URL(canonical).host === new URL(url).host ? null : canonical;
}

/**
 * The comments of `/comments?a_id=<article>`, a tree (`children`), as items in the order of
 * their creation, each with its parent (a comment, or the article). A comment without a user
 * (deleted) is skipped; its replies are kept.
 */
export function normaliseDevtoComments(
  tree: unknown,
  article: { readonly id: number; readonly url: string; readonly community: string | null },
): NormaliseResult[] {
  const results: NormaliseResult[] = [];
  const seen = new Set<string>();
  const origin = URL.canParse(article.url) ? new URL(article.url).origin : 'https://dev.to';
  const visit = (nodes: unknown, parent: string) => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes) {
      const parsed = commentSchema.safeParse(node);
      if (!parsed.success) {
        results.push(skipped('invalid', describeIssue(parsed.error)));
        continue;
      }
      const comment = parsed.data;
      const externalId = commentExternalId(comment.id_code);
      const createdAt = isoOf(comment.created_at);
      if (seen.has(externalId)) results.push(skipped('invalid', `${externalId} repeated`));
      else if (comment.user === null) results.push(skipped('deleted', externalId));
      else if (createdAt === null) results.push(skipped('invalid', 'created_at: not a date'));
      else {
        const item: NormalisedItem = {
          source: 'devto',
          externalId,
          kind: 'comment',
          title: null,
          body: devtoHtmlToText(comment.body_html),
          url: null,
          permalink: `${origin}/${comment.user.username}/comment/${comment.id_code}`,
          author: comment.user.username,
          community: article.community,
          parentExternalId: parent,
          threadTitle: null,
          createdAt,
        };
        results.push({ status: 'item', item });
      }
      seen.add(externalId);
      visit(comment.children, externalId);
    }
  };
  visit(tree, articleExternalId(article.id));
  const items = results.filter((result) => result.status === 'item');
  items.sort((a, b) => a.item.createdAt.localeCompare(b.item.createdAt));
  return [...items, ...results.filter((result) => result.status === 'skipped')];
}
