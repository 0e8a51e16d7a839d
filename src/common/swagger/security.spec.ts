import { AcceptsCredentials, CredentialScheme, requirementsOf } from './security';

const scheme = (name: string): CredentialScheme => ({ name, scheme: { type: 'http', scheme: 'bearer' } });

@AcceptsCredentials(scheme('admin'), scheme('session'))
class EitherGuard {}

@AcceptsCredentials(scheme('key'))
class KeyGuard {}

class RateLimit {}

describe('requirementsOf', () => {
  it("lets in any one of a guard's schemes", () => {
    expect(requirementsOf([EitherGuard])).toEqual([{ admin: [] }, { session: [] }]);
  });

  it('needs one scheme of each authenticating guard, and ignores the guards that do not authenticate', () => {
    expect(requirementsOf([RateLimit, EitherGuard, new KeyGuard()])).toEqual([
      { admin: [], key: [] },
      { session: [], key: [] },
    ]);
  });

  it('is public behind no authenticating guard', () => {
    expect(requirementsOf([])).toEqual([]);
    expect(requirementsOf([RateLimit])).toEqual([]);
  });
});
