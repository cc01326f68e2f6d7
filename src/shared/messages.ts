/** The toasts of SPEC.md §8 that do not belong to one record type. */

export const NOT_AUTHENTICATED_MESSAGE = 'Not authenticated';

export const toasts = {
  error: 'Error',
  signedUp: {
    title: 'Success!',
    // SPEC.md §8 went on 'You can now sign in.', but sign-up signs the user in (issue 33.8).
    description: 'Account created successfully.',
  },
  memberAdded: 'Family member added successfully',
  memberUpdated: 'Family member updated successfully',
  memberDeleted: 'Family member and all associated data removed',
  loadDataError: 'Error loading data',
  loadProfilesError: 'Error loading profiles',
  accountDeleted: {
    title: 'Account deleted',
    description: 'Your account has been permanently deleted.',
  },
  deleteAccountError: 'Error deleting account',
  profileUpdated: { title: 'Success', description: 'Profile updated successfully' },
} as const;
