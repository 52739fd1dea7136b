import {
  type BaseQueryFn,
  createApi,
  type FetchArgs,
  type FetchBaseQueryError,
  fetchBaseQuery,
} from '@reduxjs/toolkit/query/react';
import { type ApiErrorBody, apiErrorBodySchema } from '../../shared/api-error.ts';

/** How long an API call may take before it fails with TIMEOUT_ERROR. */
export const API_TIMEOUT_MS = 15_000;

type SessionShape = { session: { token: string | null } };

/**
 * How the session takes part in API calls, installed by the accounts feature at start:
 * `beforeRequest` refreshes an expired access token (docs/product.md,
 * "The session in the browser"); `onUnauthorized` runs when the API answers 401 to a call that
 * carried `sentToken`, and says whether a retry with a new token makes sense.
 */
export type SessionHooks = {
  beforeRequest(): Promise<void>;
  onUnauthorized(sentToken: string): Promise<boolean>;
  /** The API refused a freshly refreshed token too: the session cannot continue. */
  onRejected(): void;
};

let sessionHooks: SessionHooks = {
  beforeRequest: async () => {},
  onUnauthorized: async () => false,
  onRejected: () => {},
};

export function installSessionHooks(hooks: SessionHooks): void {
  sessionHooks = hooks;
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  timeout: API_TIMEOUT_MS,
  prepareHeaders: (headers, { getState }) => {
    const { token } = (getState() as SessionShape).session;
    // docs/product.md, "The product API": the access token itself is the Authorization header (no
    // scheme).
    if (token) headers.set('Authorization', token);
    if (!headers.has('Accept')) headers.set('Accept', 'application/json');
    return headers;
  },
});

const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extra,
) => {
  await sessionHooks.beforeRequest();
  const sentToken = (api.getState() as SessionShape).session.token;
  const result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 401 && sentToken && (await sessionHooks.onUnauthorized(sentToken))) {
    const retried = await rawBaseQuery(args, api, extra);
    if (retried.error?.status === 401) sessionHooks.onRejected();
    return retried;
  }
  return result;
};

/**
 * The one API slice (docs/product.md, "The product API"): base /api, JSON in and out, unused data
 * kept 60 s, no automatic refetching. Features add their endpoints with `api.injectEndpoints`.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: 60,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  tagTypes: ['Monitors', 'Matches', 'User', 'ApiKeys', 'Feeds', 'AlertFeeds', 'Deliveries'],
  endpoints: () => ({}),
});

/**
 * The API's error of a failed call, read through the shared error schema (`code`, `message`,
 * `details`); undefined when the call failed before an answer in that shape (network, timeout, a
 * proxy's page).
 */
export function readApiError(error: unknown): ApiErrorBody['error'] | undefined {
  if (!error || typeof error !== 'object' || !('data' in error)) return undefined;
  const parsed = apiErrorBodySchema.safeParse(error.data);
  return parsed.success ? parsed.data.error : undefined;
}

/**
 * A sentence for people from any RTK Query error (the request-layer errors of docs/product.md,
 * "The product API"): the API's own message when it sent one.
 */
export function describeApiError(error: unknown): string {
  if (!error || typeof error !== 'object' || !('status' in error)) {
    return 'Something went wrong. Please try again.';
  }
  const { status } = error as FetchBaseQueryError;
  if (status === 'FETCH_ERROR') return 'Cannot reach Earshot. Check your connection and try again.';
  if (status === 'TIMEOUT_ERROR') return 'Earshot took too long to answer. Please try again.';
  if (status === 'PARSING_ERROR')
    return 'Earshot sent an answer we could not read. Please reload the page.';
  const apiError = readApiError(error);
  if (apiError) return apiError.message;
  if (typeof status === 'number' && status >= 500)
    return 'Earshot had a problem on its side. Please try again shortly.';
  return 'The request could not be completed. Please try again.';
}
