import { describe, expect, it } from 'vitest';
import { firstName, initials } from './names';

describe('firstName', () => {
  it('is the first word of the full name', () => {
    expect(firstName('Ann Marie Lee')).toBe('Ann');
  });
  it('ignores surrounding and repeated spaces', () => {
    expect(firstName('   Ann    Lee ')).toBe('Ann');
  });
  it.each([null, undefined, '', '   '])('is User without a name (%j)', (value) => {
    expect(firstName(value)).toBe('User');
  });
});

describe('initials', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initials('ann marie lee')).toBe('AL');
  });
  it('takes one letter of a one-word name', () => {
    expect(initials('Cher')).toBe('C');
  });
  it('is never more than two letters', () => {
    expect(initials('A B C D E').length).toBeLessThanOrEqual(2);
  });
  it('keeps letters outside ASCII whole', () => {
    expect(initials('Émile Zoë')).toBe('ÉZ');
  });
  it('skips what is not a letter: an emoji, a bracket, a dash', () => {
    expect(initials('Ana María 👵')).toBe('AM');
    expect(initials('👵 Nana')).toBe('N');
    expect(initials('(Grandpa) Joe')).toBe('GJ');
    expect(initials('Leo -')).toBe('L');
    expect(initials('👵', '?')).toBe('?');
  });
  it('falls back without a name', () => {
    expect(initials('')).toBe('U');
    expect(initials(null, '?')).toBe('?');
  });
});
