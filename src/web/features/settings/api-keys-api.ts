import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../../../shared/api-keys.ts';
import { api } from '../../lib/api.ts';

/** /api/api-keys: list, create (the answer holds the key, once) and revoke. */
const apiKeysApi = api.injectEndpoints({
  endpoints: (build) => ({
    listApiKeys: build.query<ApiKey[], void>({
      query: () => '/api-keys',
      providesTags: ['ApiKeys'],
    }),
    createApiKey: build.mutation<CreatedApiKey, CreateApiKeyBody>({
      query: (body) => ({ url: '/api-keys', method: 'POST', body }),
      invalidatesTags: ['ApiKeys'],
    }),
    revokeApiKey: build.mutation<void, string>({
      query: (id) => ({ url: `/api-keys/${id}`, method: 'DELETE' }),
      invalidatesTags: ['ApiKeys'],
    }),
  }),
});

export const { useListApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } = apiKeysApi;
