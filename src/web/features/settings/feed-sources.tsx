import { useState } from 'react';
import { FEED_KIND_LABELS, type Feed, type FeedPreview } from '../../../shared/feeds.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { describeApiError } from '../../lib/api.ts';
import {
  useAddFeedMutation,
  useListFeedsQuery,
  usePreviewFeedMutation,
  useRemoveFeedMutation,
  useUpdateFeedMutation,
} from '../../lib/feeds-api.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';

/**
 * Settings → Sources: paste the address of a feed, a Discourse forum or a page that links a feed;
 * look at what it is before saving; the saved ones with their health, pause and remove. Every
 * text from a feed is rendered as text, and only http(s) links become links.
 */
export function FeedSources() {
  const [url, setUrl] = useState('');
  const [preview, setPreview] = useState<FeedPreview | null>(null);
  const [previewFeed, previewState] = usePreviewFeedMutation();
  const [addFeed, addState] = useAddFeedMutation();
  const feeds = useListFeedsQuery();
  const error = previewState.error ?? addState.error;

  return (
    <div className="grid gap-6">
      <form
        className="grid gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          setPreview(null);
          addState.reset();
          void previewFeed(url.trim())
            .unwrap()
            .then(setPreview)
            .catch(() => {});
        }}
      >
        <Field
          label="Feed or forum address"
          hint="An RSS, Atom or JSON Feed address, a Discourse forum, or a page that links a feed."
          placeholder="https://example.org/feed.xml"
          inputMode="url"
          value={url}
          error={error ? describeApiError(error) : undefined}
          onChange={(event) => {
            setUrl(event.target.value);
            setPreview(null);
          }}
        />
        <div>
          <Button type="submit" variant="outline" disabled={!url.trim() || previewState.isLoading}>
            {previewState.isLoading ? 'Looking…' : 'Preview'}
          </Button>
        </div>
      </form>

      {preview ? (
        <section aria-label="Preview" className="grid gap-3 rounded-lg border p-4">
          <div>
            <p className="font-medium">{preview.name}</p>
            <p className="text-sm text-muted-foreground">
              {FEED_KIND_LABELS[preview.kind]} · {preview.url}
            </p>
          </div>
          {preview.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">No items in it yet.</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {preview.items.map((item) => (
                <li
                  key={[item.permalink, item.title, item.createdAt, item.text.slice(0, 40)].join(
                    '|',
                  )}
                >
                  <ItemTitle title={item.title ?? item.text.slice(0, 80)} href={item.permalink} />
                  {item.createdAt ? (
                    <span className="text-muted-foreground"> · {relativeTime(item.createdAt)}</span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <div>
            <Button
              type="button"
              disabled={addState.isLoading}
              onClick={() =>
                void addFeed(url.trim())
                  .unwrap()
                  .then(() => {
                    setUrl('');
                    setPreview(null);
                  })
                  .catch(() => {})
              }
            >
              {addState.isLoading ? 'Adding…' : 'Add this source'}
            </Button>
          </div>
        </section>
      ) : null}

      {feeds.isLoading ? (
        <Skeleton className="h-16" />
      ) : feeds.error ? (
        <Alert variant="destructive">{describeApiError(feeds.error)}</Alert>
      ) : feeds.data && feeds.data.length > 0 ? (
        <ul className="grid gap-3" aria-label="Your sources">
          {feeds.data.map((feed) => (
            <FeedRow key={feed.id} feed={feed} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          No sources added yet. Monitors find their items with site:feeds or feed:"name".
        </p>
      )}
    </div>
  );
}

function ItemTitle({ title, href }: { title: string; href: string | null }) {
  const safe = safeHttpUrl(href);
  return safe ? (
    <a className="underline-offset-2 hover:underline" href={safe} target="_blank" rel="noreferrer">
      {title}
    </a>
  ) : (
    <span>{title}</span>
  );
}

function FeedRow({ feed }: { feed: Feed }) {
  const [updateFeed, updateState] = useUpdateFeedMutation();
  const [removeFeed, removeState] = useRemoveFeedMutation();
  const health = feed.health.error
    ? `Failing: ${feed.health.error}`
    : feed.health.lastSuccessAt
      ? `Read ${relativeTime(feed.health.lastSuccessAt)} · ${feed.health.itemsSeen} items`
      : 'Not read yet';
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3">
      <div className="min-w-0">
        <p className="truncate font-medium">
          {feed.name}
          {feed.paused ? <span className="text-muted-foreground"> (paused)</span> : null}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          {FEED_KIND_LABELS[feed.kind]} · feed:"{feed.name}" · {feed.url}
        </p>
        <p
          className={
            feed.health.error ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'
          }
        >
          {health}
        </p>
      </div>
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={updateState.isLoading}
          onClick={() => void updateFeed({ id: feed.id, change: { paused: !feed.paused } })}
        >
          {feed.paused ? 'Resume' : 'Pause'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          aria-label={`Remove ${feed.name}`}
          disabled={removeState.isLoading}
          onClick={() => void removeFeed(feed.id)}
        >
          Remove
        </Button>
      </div>
    </li>
  );
}
