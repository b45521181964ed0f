import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BlockedUrlError,
  checkUrlSyntax,
  isBlockedAddress,
  resolveAndCheck,
  urlValidationItem,
  type LookupAll,
} from '../../../shared/security/ssrf';

const PROD = { allowPrivate: false, requireHttps: true };
const DEV = { allowPrivate: true, requireHttps: false };

function answering(...addresses: string[]): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

async function refusal(url: string, opts = PROD, lookup: LookupAll = answering('93.184.215.14')): Promise<string> {
  try {
    await resolveAndCheck(url, opts, lookup);
  } catch (error) {
    if (error instanceof BlockedUrlError) return error.reason;
    throw error;
  }
  throw new Error(`expected ${url} to be refused`);
}

describe('checkUrlSyntax: literal addresses in every spelling', () => {
  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://0x7f000001/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://127.1/', 'loopback'],
    ['https://017700000001/', 'loopback'],
    ['https://0177.0.0.1/', 'loopback'],
    ['https://01200034567/', 'private'],
    ['https://012.1.2.3/', 'private'],
    ['https://0xa9.0xfe.0xa9.0xfe/', 'link-local'],
    ['https://%31%32%37.0.0.1/', 'loopback'],
    ['https://127.0.0.1./', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://[000:0:0000::01]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::fFFf:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:7f00:1]/', 'loopback'],
    ['https://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'link-local'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible IPv6 address embedding 127.0.0.1'],
    ['https://[::169.254.169.254]/', 'IPv4-compatible IPv6 address embedding 169.254.169.254'],
    ['https://[64:ff9b::10.0.0.1]/', 'NAT64 address embedding 10.0.0.1'],
    ['https://[2002:a00:1::]/', '6to4 address embedding 10.0.0.1'],
    ['https://[2002:c0a8:101::]/', '6to4 address embedding 192.168.1.1'],
    ['https://10.0.0.1/', 'private'],
    ['https://172.16.5.4/', 'private'],
    ['https://172.31.255.255/', 'private'],
    ['https://192.168.1.1/', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'link-local'],
    ['https://169.254.170.2/v2/credentials', 'link-local'],
    ['https://100.64.0.1/', 'carrier-grade NAT'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://0/', 'unspecified'],
    ['https://0.1.2.3/', 'unspecified'],
    ['https://[::]/', 'unspecified'],
    ['https://240.0.0.1/', 'reserved'],
    ['https://255.255.255.255/', 'broadcast'],
    ['https://[fd00:ec2::254]/', 'cloud metadata'],
    ['https://[fd00::1]/', 'unique-local'],
    ['https://[fc00::1]/', 'unique-local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[ff02::1]/', 'multicast'],
    ['https://[2001::1]/', 'Teredo'],
    ['https://[::ffff:0:7f00:1]/', 'IPv4-translated'],
    ['https://198.18.0.1/', 'benchmarking'],
  ])('refuses %s (%s)', (url, label) => {
    // Arrange / Act
    const result = checkUrlSyntax(url, PROD);

    // Assert
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(label);
  });

  it.each([
    ['https://localhost/'],
    ['https://LOCALHOST./'],
    ['https://localhost../'],
    ['https://api.localhost/'],
    ['https://a.b.localhost./'],
    ['https://ip6-localhost/'],
  ])('refuses the loopback name %s', (url) => {
    expect(checkUrlSyntax(url, PROD)).toEqual({ ok: false, reason: expect.stringContaining('loopback name') });
  });

  it.each([
    ['ftp://example.com/', 'ftp scheme'],
    ['file:///etc/passwd', 'file scheme'],
    ['gopher://example.com/', 'gopher scheme'],
    ['javascript:alert(1)', 'javascript scheme'],
    ['http://example.com/', 'must use https'],
    ['https://user:pw@example.com/', 'credentials'],
    ['https://user@example.com/', 'credentials'],
    ['https://:pw@example.com/', 'credentials'],
    ['not a url', 'not a valid absolute URL'],
    ['/relative/path', 'not a valid absolute URL'],
    ['https://./', 'no host'],
  ])('refuses %s (%s)', (url, reason) => {
    const result = checkUrlSyntax(url, PROD);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it.each([
    ['https://example.com/hooks?x=1'],
    ['https://8.8.8.8/'],
    ['https://[2606:4700:4700::1111]/'],
    ['https://[::ffff:8.8.8.8]/'],
    ['https://hooks.example.com:8443/path'],
    ['https://example.com./'],
  ])('allows the public URL %s', (url) => {
    const result = checkUrlSyntax(url, PROD);
    expect(result.ok).toBe(true);
  });

  it('allows plain http only when https is not required', () => {
    expect(checkUrlSyntax('http://example.com/', { allowPrivate: false, requireHttps: false }).ok).toBe(true);
  });
});

describe('allowPrivate (the explicit local-development setting)', () => {
  it.each([
    ['http://127.0.0.1:4000/'],
    ['http://localhost:4000/'],
    ['http://[::1]:4000/'],
    ['http://10.1.2.3/'],
    ['http://192.168.0.10/'],
    ['http://[fd12::1]/'],
    ['http://app.localhost/'],
  ])('opens loopback and private targets: %s', (url) => {
    expect(checkUrlSyntax(url, DEV).ok).toBe(true);
  });

  it.each([
    ['http://169.254.169.254/', 'link-local'],
    ['http://169.254.170.2/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['file:///etc/passwd', 'scheme'],
    ['http://user:pw@127.0.0.1/', 'credentials'],
  ])('still refuses %s', (url, reason) => {
    const result = checkUrlSyntax(url, DEV);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });
});

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1',
    '0x7f.1',
    '2130706433',
    '017700000001',
    '012.1.2.3',
    '0',
    '10.0.0.1',
    '169.254.169.254',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b::808:808',
    '2002:808:808::',
    'fe80::1%eth0',
    'not-an-ip',
    '',
  ])('blocks %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1'])(
    'allows %s',
    (ip) => {
      expect(isBlockedAddress(ip)).toBe(false);
    },
  );

  it('blocks every spelling of every blocked IPv4 address (property)', () => {
    const blockedV4 = fc.oneof(
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.integer({ min: 224, max: 255 }), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
    );
    fc.assert(
      fc.property(blockedV4, fc.nat(3), ([a, b, c, d], form) => {
        const value = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
        const spellings = [
          `${a}.${b}.${c}.${d}`,
          `0${a.toString(8)}.0${b.toString(8)}.0${c.toString(8)}.0${d.toString(8)}`,
          `0x${a.toString(16)}.0x${b.toString(16)}.0x${c.toString(16)}.0x${d.toString(16)}`,
          String(value),
        ];
        const mapped = `::ffff:${((a << 8) + b).toString(16)}:${((c << 8) + d).toString(16)}`;
        return isBlockedAddress(spellings[form]!) && isBlockedAddress(mapped) && !checkUrlSyntax(`https://${spellings[form]}/`, PROD).ok;
      }),
      { numRuns: 200 },
    );
  });
});

describe('resolveAndCheck (connection time)', () => {
  it('returns the first resolved address of a public name', async () => {
    // Arrange
    const lookup = answering('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c');

    // Act
    const target = await resolveAndCheck('https://hooks.example.com/in', PROD, lookup);

    // Assert
    expect(target).toMatchObject({ address: '93.184.215.14', family: 4 });
    expect(target.url.href).toBe('https://hooks.example.com/in');
    expect(lookup.calls).toEqual(['hooks.example.com']);
  });

  it('refuses a name that resolves to a private address', async () => {
    expect(await refusal('https://rebind.example.com/', PROD, answering('10.0.0.1'))).toContain('10.0.0.1 is a private address');
  });

  it('refuses a name when ANY resolved address is blocked (public and private mixed)', async () => {
    expect(await refusal('https://mixed.example.com/', PROD, answering('93.184.215.14', '169.254.169.254'))).toContain('169.254.169.254');
    expect(await refusal('https://mixed.example.com/', PROD, answering('2606:4700::1', '::ffff:127.0.0.1'))).toContain(
      '127.0.0.1 is a loopback',
    );
  });

  it('refuses a name that resolves to nothing', async () => {
    expect(await refusal('https://empty.example.com/', PROD, answering())).toContain('did not resolve');
  });

  it('never resolves literal addresses, and refuses blocked ones', async () => {
    // Arrange
    const lookup = answering('93.184.215.14');

    // Act / Assert
    expect(await refusal('https://[::ffff:a9fe:a9fe]/', PROD, lookup)).toContain('169.254.169.254');
    expect(await resolveAndCheck('https://[2606:4700:4700::1111]/', PROD, lookup)).toMatchObject({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    expect(lookup.calls).toEqual([]);
  });

  it('unwraps an IPv4-mapped answer to the IPv4 address it connects to', async () => {
    const target = await resolveAndCheck('https://mapped.example.com/', PROD, answering('::ffff:8.8.8.8'));
    expect(target).toMatchObject({ address: '8.8.8.8', family: 4 });
  });

  it('lets a loopback answer through only with allowPrivate', async () => {
    expect(await refusal('http://dev.example.com/', { allowPrivate: false, requireHttps: false }, answering('127.0.0.1'))).toContain(
      'loopback',
    );
    expect(await resolveAndCheck('http://dev.example.com/', DEV, answering('127.0.0.1'))).toMatchObject({ address: '127.0.0.1' });
  });

  it('rethrows resolver failures unchanged (transient, not a policy refusal)', async () => {
    const failing: LookupAll = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nope.example.com'), { code: 'ENOTFOUND' });
    };
    await expect(resolveAndCheck('https://nope.example.com/', PROD, failing)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('applies the syntax check first', async () => {
    expect(await refusal('https://user:pw@example.com/')).toContain('credentials');
  });
});

describe('urlValidationItem', () => {
  it('builds a pydantic value_error item', () => {
    expect(urlValidationItem(['body', 'config', 'advanced', 'server_url'], 'the URL must use https', 'http://x.test')).toEqual({
      loc: ['body', 'config', 'advanced', 'server_url'],
      msg: 'Value error, URL not allowed: the URL must use https',
      type: 'value_error',
      input: 'http://x.test',
      ctx: { error: 'the URL must use https' },
    });
  });
});
