import { DEFAULT_WEBHOOK_PORTS, isNonPublicAddress, parsePortAllowList, webhookTargetProblem } from './webhook-target';

const strict = { allowHttp: false, allowPrivate: false, allowedPorts: new Set(DEFAULT_WEBHOOK_PORTS) };

describe('webhook target policy (SSRF)', () => {
  it.each([
    'https://hooks.partner.example/alerts',
    'https://hooks.partner.example:8443/a?b=c',
    'https://93.184.216.34/x',
    'https://[2606:4700::1111]/x',
    'https://hooks.partner.example:443/x',
  ])('accepts public https target %s', (url) => expect(webhookTargetProblem(url, strict)).toBeUndefined());

  it.each([
    ['http://hooks.partner.example/', 'https'],
    ['not a url', 'absolute URL'],
    ['https://user:pw@hooks.partner.example/', 'credentials'],
    ['https://localhost/x', 'public host'],
    ['https://intranet/x', 'public host'],
    ['https://svc.cluster.local/x', 'public host'],
    ['https://127.0.0.1/x', 'private'],
    ['https://10.1.2.3/x', 'private'],
    ['https://172.20.0.1/x', 'private'],
    ['https://192.168.1.1/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'private'],
    ['https://100.100.100.200/x', 'private'], // CGNAT (also a cloud metadata address)
    ['https://224.0.0.1/x', 'private'],
    ['https://[::1]/x', 'private'],
    ['https://[::]/x', 'private'],
    ['https://[::ffff:10.0.0.1]/x', 'private'],
    ['https://[::ffff:7f00:1]/x', 'private'],
    ['https://[::7f00:1]/x', 'private'], // IPv4-compatible form
    ['https://[64:ff9b::7f00:1]/x', 'private'], // NAT64
    ['https://[2002:7f00:1::]/x', 'private'], // 6to4
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x', 'private'], // Teredo
    ['https://[fd00::1]/x', 'private'],
    ['https://[fe80::1]/x', 'private'],
    ['https://[ff02::1]/x', 'private'],
    ['https://2130706433/x', 'private'], // decimal 127.0.0.1
    ['https://0x7f.1/x', 'private'], // hex + short form
    ['https://017700000001/x', 'private'], // octal
    ['https://127.1/x', 'private'],
    ['ftp://hooks.partner.example/', 'https'],
    ['https://hooks.partner.example/#frag', 'fragment'],
    ['https://hooks.partner.example:6379/x', 'port'],
    ['https://hooks.partner.example:22/x', 'port'],
    ['https://93.184.216.34:5432/x', 'port'],
  ])('refuses %s', (url, reason) => {
    expect(webhookTargetProblem(url, strict)).toContain(reason);
  });

  it('lets tests and local development use http, loopback and any port when configured', () => {
    const dev = { allowHttp: true, allowPrivate: true, allowedPorts: 'any' as const };
    expect(webhookTargetProblem('http://127.0.0.1:4000/hook', dev)).toBeUndefined();
    expect(webhookTargetProblem('http://127.0.0.1:4000/hook', { ...dev, allowPrivate: false })).toContain('private');
    expect(webhookTargetProblem('http://127.0.0.1:4000/hook', { ...dev, allowedPorts: new Set([443]) })).toContain(
      'port',
    );
  });

  it('parses the port allow-list setting', () => {
    expect(parsePortAllowList('*')).toBe('any');
    expect([...(parsePortAllowList('443, 8443') as Set<number>)]).toEqual([443, 8443]);
  });

  it('classifies addresses', () => {
    expect(isNonPublicAddress('8.8.8.8')).toBe(false);
    expect(isNonPublicAddress('2606:4700::1111')).toBe(false);
    expect(isNonPublicAddress('100.64.0.1')).toBe(true);
    expect(isNonPublicAddress('224.0.0.1')).toBe(true);
    expect(isNonPublicAddress('::ffff:169.254.169.254')).toBe(true);
    expect(isNonPublicAddress('::ffff:8.8.8.8')).toBe(false);
    expect(isNonPublicAddress('not-an-ip')).toBe(true);
  });
});
