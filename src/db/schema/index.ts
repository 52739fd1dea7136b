// The one place that lists every table, for Drizzle's relational queries and drizzle-kit.

export * from './alert-feeds.ts';
export * from './api-keys.ts';
export * from './delivery.ts';
export * from './feeds.ts';
export * from './identity.ts';
export * from './items.ts';
export * from './matches.ts';
export * from './monitors.ts';
export * from './source-health.ts';
export * from './users.ts';
