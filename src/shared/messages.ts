/**
 * The toasts of SPEC.md §8 that do not belong to one record type. Each text is a key of the
 * catalogue: a screen shows it as `t(toasts.memberAdded)`.
 */
import { key } from './i18n/translate';

export const NOT_AUTHENTICATED_MESSAGE = key('Not authenticated');

export const toasts = {
  error: key('Error'),
  signedUp: {
    title: key('Success!'),
    // SPEC.md §8 went on 'You can now sign in.', but sign-up signs the user in (issue 33.8).
    description: key('Account created successfully.'),
  },
  memberAdded: key('Family member added successfully'),
  memberUpdated: key('Family member updated successfully'),
  memberDeleted: key('Family member and all associated data removed'),
  loadDataError: key('Error loading data'),
  loadProfilesError: key('Error loading profiles'),
  accountDeleted: {
    title: key('Account deleted'),
    description: key('Your account has been permanently deleted.'),
  },
  deleteAccountError: key('Error deleting account'),
  profileUpdated: { title: key('Success'), description: key('Profile updated successfully') },
} as const;
