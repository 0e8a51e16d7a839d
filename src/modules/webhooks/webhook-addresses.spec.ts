import type { LookupAddress } from 'node:dns';
import { request, RequestOptions } from 'node:http';
import { DomainError } from '../../common/errors/domain-error';
import { isPublicAddress, PublicHttpAgent, PublicHttpsAgent } from './webhook-addresses';
import { parseWebhookUrl } from './webhook-policy';

/** Every IPv6 form that embeds an IPv4 address, each holding a loopback, a private and a public IPv4. */
export const EMBEDDING_IPV4 = [
  // IPv4-compatible (::/96), written both ways; `::` and `::1` are in the range too.
  '::127.0.0.1',
  '::7f00:1',
  '::10.0.0.1',
  '::8.8.8.8',
  // IPv4-mapped (::ffff:0:0/96).
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:8.8.8.8',
  // IPv4-translated, SIIT (::ffff:0:0:0/96).
  '::ffff:0:7f00:1',
  // NAT64, well-known prefix (64:ff9b::/96) and local use (64:ff9b:1::/48).
  '64:ff9b::7f00:1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::808:808',
  '64:ff9b:1::a00:1',
  '64:ff9b:1:ffff::7f00:1',
  // 6to4 (2002::/16): the IPv4 address is bits 16 to 48.
  '2002:7f00:1::',
  '2002:a00:1::1',
  '2002:808:808::1',
  // Teredo (2001::/32): the server's IPv4 in bits 32 to 64, the client's obfuscated in the last 32.
  '2001::1',
  '2001:0:7f00:1::1',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
];

describe('isPublicAddress', () => {
  it.each(EMBEDDING_IPV4)('refuses %s, an IPv6 address that embeds an IPv4 one', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '2001:db8::1',
  ])('refuses %s, not a public unicast address', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a03:2880::1'])(
    'takes %s, a public address',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('takes no name: names are resolved, and their addresses decided, when connecting', () => {
    expect(isPublicAddress('gym.example.com')).toBe(false);
  });
});

describe('a webhook URL naming an address that is not public is refused when saved', () => {
  const refusal = (url: string) => {
    try {
      parseWebhookUrl(url, false);
    } catch (error) {
      if (error instanceof DomainError) return `${error.label}: ${error.message}`;
      throw error;
    }
    return 'accepted';
  };

  it.each(EMBEDDING_IPV4.map((address) => `https://[${address}]:3660/hooks`))('%s', (url) => {
    expect(refusal(url)).toMatch(/^invalid_parameter: webhook_url must name a public address/);
  });

  it.each([
    'https://127.0.0.1/hooks',
    'https://127.1/hooks',
    'https://0x7f.1/hooks',
    'https://2130706433/hooks',
    'https://017700000001/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hooks',
    'https://[fd00:ec2::254]/',
  ])('%s (an IPv4 form the URL parser normalizes, or a private address)', (url) => {
    expect(refusal(url)).toMatch(/^invalid_parameter: webhook_url must name a public address/);
  });

  it('takes public addresses and names, and every address when private networks are allowed', () => {
    expect(refusal('https://8.8.8.8/hooks')).toBe('accepted');
    expect(refusal('https://[2606:4700:4700::1111]/hooks')).toBe('accepted');
    expect(refusal('https://erp.example.com/hooks')).toBe('accepted');
    expect(parseWebhookUrl('http://[::7f00:1]:3660/hooks', true)).toBe('http://[::7f00:1]:3660/hooks');
  });
});

describe('the agents refuse every address that is not public when they connect', () => {
  /**
   * Where a request through `agent` ends: the error it fails with (it never connects). An address typed in the
   * URL is refused as the request is made, a resolved one once the name is looked up.
   */
  async function attempt(
    agent: PublicHttpAgent,
    options: { host: string; lookup?: unknown },
  ): Promise<string> {
    try {
      return await new Promise((resolve) => {
        const req = request({ ...options, port: 9, path: '/', agent, timeout: 5000 } as RequestOptions);
        req.on('error', (error) => resolve(error.message));
        req.on('response', () => resolve('connected'));
        req.on('timeout', () => req.destroy(new Error('timed out')));
        req.end();
      });
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** A resolver that answers `addresses` for any name, as a DNS record pointing at them would. */
  const resolvingTo =
    (...addresses: string[]) =>
    (
      _name: string,
      options: { all?: boolean },
      callback: (error: null, found: LookupAddress[] | string, family?: number) => void,
    ) => {
      const found = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if (options.all) callback(null, found);
      else callback(null, found[0].address, found[0].family);
    };

  it.each(EMBEDDING_IPV4)('an address typed in the URL: %s', async (address) => {
    await expect(attempt(new PublicHttpAgent(true), { host: address })).resolves.toMatch(
      /^DNS lookup .* is not allowed/,
    );
  });

  it.each(EMBEDDING_IPV4)('a name that resolves to %s', async (address) => {
    await expect(
      attempt(new PublicHttpAgent(true), { host: 'gym.example', lookup: resolvingTo('8.8.8.8', address) }),
    ).resolves.toMatch(/^DNS lookup .* is not allowed/);
  });

  it('the https agent too', async () => {
    const agent = new PublicHttpsAgent(true);
    await new Promise<void>((resolve, reject) => {
      try {
        agent.createConnection({ host: '::7f00:1', port: 443 });
        reject(new Error('connected'));
      } catch (error) {
        expect((error as Error).message).toMatch(/^DNS lookup .* is not allowed/);
        resolve();
      }
    });
  });

  it('connects anywhere when private networks are allowed (development and tests)', async () => {
    // Port 9 (discard) is closed here: the refusal comes from the host's stack, not from the filter.
    await expect(attempt(new PublicHttpAgent(false), { host: '127.0.0.1' })).resolves.toMatch(/ECONNREFUSED/);
  });
});
