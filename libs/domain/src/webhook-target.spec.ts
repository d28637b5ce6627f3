import { isNonPublicAddress, webhookTargetProblem } from './webhook-target';

const strict = { allowHttp: false, allowPrivate: false };

describe('webhook target policy (SSRF)', () => {
  it.each(['https://hooks.partner.example/alerts', 'https://hooks.partner.example:8443/a?b=c', 'https://93.184.216.34/x', 'https://[2606:4700::1111]/x'])(
    'accepts public https target %s',
    (url) => expect(webhookTargetProblem(url, strict)).toBeUndefined(),
  );

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
    ['https://[::1]/x', 'private'],
    ['https://[::ffff:10.0.0.1]/x', 'private'],
    ['https://[fd00::1]/x', 'private'],
    ['ftp://hooks.partner.example/', 'https'],
    ['https://hooks.partner.example/#frag', 'fragment'],
  ])('refuses %s', (url, reason) => {
    expect(webhookTargetProblem(url, strict)).toContain(reason);
  });

  it('lets tests and local development use http and loopback when configured', () => {
    expect(webhookTargetProblem('http://127.0.0.1:4000/hook', { allowHttp: true, allowPrivate: true })).toBeUndefined();
    expect(webhookTargetProblem('http://127.0.0.1:4000/hook', { allowHttp: true, allowPrivate: false })).toContain('private');
  });

  it('classifies addresses', () => {
    expect(isNonPublicAddress('8.8.8.8')).toBe(false);
    expect(isNonPublicAddress('100.64.0.1')).toBe(true);
    expect(isNonPublicAddress('224.0.0.1')).toBe(true);
    expect(isNonPublicAddress('not-an-ip')).toBe(true);
  });
});
