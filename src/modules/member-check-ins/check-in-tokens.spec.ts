import {
  CheckInTokenGenerator,
  generateConfirmationToken,
  hashConfirmationToken,
  parseConfirmationToken,
} from './check-in-tokens';

describe('confirmation tokens', () => {
  it('are 32 random bytes in base64url, different every time', () => {
    const tokens = new Set(Array.from({ length: 100 }, generateConfirmationToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as a SHA-256 that does not reveal them', () => {
    const token = generateConfirmationToken();
    expect(hashConfirmationToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashConfirmationToken(token)).toBe(hashConfirmationToken(token));
    expect(hashConfirmationToken(token)).not.toContain(token);
  });

  it('are read back from a path segment, padded or not, and anything else is not one', () => {
    const token = generateConfirmationToken();
    expect(parseConfirmationToken(token)).toBe(token);
    expect(parseConfirmationToken(`${token}=`)).toBe(token);
    expect(parseConfirmationToken(`${token}==`)).toBe(token);
    for (const bad of [
      '',
      'abc',
      `${token}x`,
      token.slice(1),
      `${token.slice(1)}+`,
      `${token}===`,
      '../../etc',
    ]) {
      expect(parseConfirmationToken(bad)).toBeUndefined();
    }
  });
});

describe('CheckInTokenGenerator', () => {
  it('gives 6 digits, leading zeros kept', () => {
    const generator = new CheckInTokenGenerator();
    for (let i = 0; i < 500; i++) expect(generator.next()).toMatch(/^\d{6}$/);
  });
});
