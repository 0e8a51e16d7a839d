import { generateApiKey, hashKey, KeyVault } from './key-vault';

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
