/** The Accept-Language tag of the pseudo-locale (CLDR's pseudo-locale for accented English). */
export const PSEUDO_LOCALE_TAG = 'en-XA';
