import type { UpdateUserBody, UserRecord } from '../../shared/user.ts';
import { api } from './api.ts';

export type { UserRecord };

/** PUT /api/user: any subset of the editable fields. */
export type UserUpdate = UpdateUserBody;

/**
 * The user endpoints, shared by the accounts and settings features (docs/product.md,
 * "The product API").
 */
export const userApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The signed-in user's record. A session restored from storage may predate the record (or the
     * record was never made on this server), so a 404 makes it with POST /api/user, which is idempotent.
     */
    getUser: build.query<UserRecord, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const found = await baseQuery('/user');
        if (found.error?.status !== 404) {
          return found.error ? { error: found.error } : { data: found.data as UserRecord };
        }
        const created = await baseQuery({ url: '/user', method: 'POST', body: {} });
        return created.error ? { error: created.error } : { data: created.data as UserRecord };
      },
      providesTags: ['User'],
    }),
    /** Creates the record for the signed-in identity if it is missing; idempotent. */
    ensureUser: build.mutation<UserRecord, void>({
      query: () => ({ url: '/user', method: 'POST', body: {} }),
      invalidatesTags: ['User'],
    }),
    updateUser: build.mutation<UserRecord, UserUpdate>({
      query: (body) => ({ url: '/user', method: 'PUT', body }),
      invalidatesTags: ['User'],
    }),
    /** After a verified e-mail change: the record takes the identity's address (the server asks it). */
    syncEmail: build.mutation<UserRecord, void>({
      query: () => ({ url: '/user/email', method: 'POST' }),
      invalidatesTags: ['User'],
    }),
    /** Its caller stops reading the record first: a refetch now would recreate it (see getUser). */
    deleteUserData: build.mutation<void, void>({
      query: () => ({ url: '/user', method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const {
  useGetUserQuery,
  useUpdateUserMutation,
  useDeleteUserDataMutation,
  useSyncEmailMutation,
} = userApi;
