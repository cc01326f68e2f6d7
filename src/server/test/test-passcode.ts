/**
 * The Friends & Family Passcode of every test and benchmark server: one place, so that a
 * test, a browser test, a screenshot run and the benchmark agree. Never the product's.
 */
export const TEST_PASSCODE = '246810';
