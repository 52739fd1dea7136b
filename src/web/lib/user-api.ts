import { api } from './api.ts';

/** The backend user record (PRODUCT.md §5), as GET/PUT/POST /api/user answer it. */
export type UserRecord = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  timezone: string;
  emailAlerts: 'instant' | 'hourly' | 'daily' | 'off';
  createdAt: string;
};

export type UserUpdate = Partial<
  Pick<UserRecord, 'firstName' | 'lastName' | 'timezone' | 'emailAlerts'>
>;

/** The user endpoints, shared by the accounts and settings features (spec §7). */
export const userApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUser: build.query<UserRecord, void>({
      query: () => '/user',
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
    deleteUserData: build.mutation<void, void>({
      query: () => ({ url: '/user', method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const {
  useGetUserQuery,
  useEnsureUserMutation,
  useUpdateUserMutation,
  useDeleteUserDataMutation,
} = userApi;
