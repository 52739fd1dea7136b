import { secureHeaders } from 'hono/secure-headers';

/**
 * A strict Content-Security-Policy that still lets the browser reach the configured identity
 * provider and analytics host. Styles allow 'unsafe-inline' only for style attributes set by
 * Radix and vaul (positioning); scripts never run inline.
 */
export function createSecurityHeaders(options: {
  connectOrigins: string[];
  analyticsOrigins: string[];
}) {
  const connect = unique(["'self'", ...options.connectOrigins, ...options.analyticsOrigins]);
  const scripts = unique(["'self'", ...options.analyticsOrigins]);
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      connectSrc: connect,
      scriptSrc: scripts,
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...options.analyticsOrigins],
      fontSrc: ["'self'", 'data:'],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-site',
    strictTransportSecurity: 'max-age=15552000; includeSubDomains',
  });
}

/** PostHog serves its scripts from an assets host next to the ingestion host. */
export function analyticsOrigins(host: string | undefined): string[] {
  if (!host) return [];
  const url = new URL(host);
  const origins = [url.origin];
  const match = /^([a-z]+)\.i\.posthog\.com$/.exec(url.hostname);
  if (match) origins.push(`https://${match[1]}-assets.i.posthog.com`);
  return origins;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
