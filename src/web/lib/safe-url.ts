/**
 * A link target from untrusted content (a post's URL), or null when it must not be a link:
 * only absolute http(s) URLs are; `javascript:`, `data:` and the rest are shown as text.
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
