import { generateApiKey, hashKey, KeyVault, maskApiKey } from './key-vault';

describe('KeyVault', () => {
  it('opens what it sealed', () => {
    const vault = new KeyVault('secret');
    const key = generateApiKey('plk');
    const sealed = vault.seal(key);
    expect(sealed).not.toContain(key);
    expect(vault.open(sealed)).toBe(key);
  });

  it('refuses a ciphertext sealed with another secret', () => {
    const sealed = new KeyVault('one').seal('plk_x');
    expect(() => new KeyVault('two').open(sealed)).toThrow();
  });

  it('hashes keys as hex SHA-256', () => {
    expect(hashKey('place-key-1')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('generates distinct prefixed keys', () => {
    const a = generateApiKey('ptk');
    expect(a).toMatch(/^ptk_[A-Za-z0-9_-]{32}$/);
    expect(generateApiKey('ptk')).not.toBe(a);
  });
});

describe('maskApiKey', () => {
  it('keeps the prefix and four characters at each end', () => {
    expect(maskApiKey('plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d')).toBe('plk_3q2x…Lp0d');
    expect(maskApiKey('ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j')).toBe('ptk_9ZtQ…Kf5j');
  });

  it('shows nothing of a key too short to hide', () => {
    expect(maskApiKey('plk_short')).toBe('plk_…');
  });
});
