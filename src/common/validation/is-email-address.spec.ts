import { isEmail } from 'class-validator';
import { isEmailAddress } from './is-email-address';

describe('isEmailAddress', () => {
  it('refuses an address holding a lone surrogate, where the plain validator throws', () => {
    expect(() => isEmail('ana\uD800@example.com')).toThrow();
    expect(isEmailAddress('ana\uD800@example.com')).toBe(false);
    expect(isEmailAddress('ana@exa\uDC00mple.com')).toBe(false);
  });

  it('accepts what @IsEmail accepts, an emoji (a proper surrogate pair) in a name', () => {
    expect(isEmailAddress('ana@example.com')).toBe(true);
    expect(isEmailAddress('ana\u{1F600}@example.com')).toBe(isEmail('ana\u{1F600}@example.com'));
    expect(isEmailAddress('not an address')).toBe(false);
    expect(isEmailAddress(42)).toBe(false);
  });
});
