import type { ArgumentsHost } from '@nestjs/common';
import { ApiErrorCode, RetryLaterError } from '@edu/domain';
import { RefusalReason } from '../log/refusal-reason';
import type { SignInOutcomes, SignInRefusal } from '../log/sign-in-outcomes';
import { UpstreamError } from '../upstream/upstream-client';
import { BrandPaths } from './brand/brand-paths';
import type { BrandStore, PageBrand } from './brand/brand-store';
import { PortalErrorFilter } from './portal-error.filter';

const BRAND: PageBrand = {
  portalName: 'Kampong Schools',
  paths: new BrandPaths('signin.kampong.test', '1'),
  hasLogo: { light: true, dark: false },
};

/** A brand store that counts its reads: `forHost` reads the database, `lastKnown` does not. */
function brands(o: { known?: PageBrand; read?: PageBrand | Error }) {
  const calls = { reads: 0 };
  const store = {
    lastKnown: () => o.known,
    forHost: async () => {
      calls.reads++;
      if (o.read instanceof Error) throw o.read;
      return o.read;
    },
  };
  return { store: store as unknown as BrandStore, calls };
}

/** The recorder, keeping what it was told. */
function outcomes() {
  const refused: SignInRefusal[] = [];
  const recorder = { refused: async (r: SignInRefusal) => void refused.push(r) };
  return { recorder: recorder as unknown as SignInOutcomes, refused };
}

const filterOf = (store: BrandStore, recorder = outcomes().recorder) => new PortalErrorFilter(store, recorder);

async function answer(filter: PortalErrorFilter, err: unknown) {
  const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const res = {
    headersSent: false,
    status: (s: number) => ((sent.status = s), res),
    set: (h: Record<string, string>) => (Object.assign(sent.headers, h), res),
    setHeader: (k: string, v: string) => void (sent.headers[k] = v),
    send: (b: string) => void (sent.body = b),
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ hostname: 'signin.kampong.test' }) }),
  };
  await filter.catch(err, host as unknown as ArgumentsHost);
  return sent;
}

describe('PortalErrorFilter', () => {
  it('shows an unexpected error as a 500 page in the host’s brand (read, else the last one known)', async () => {
    for (const b of [brands({ read: BRAND }), brands({ read: new Error('database down'), known: BRAND })]) {
      const sent = await answer(filterOf(b.store), new Error('bug'));
      expect(sent.status).toBe(500);
      expect(sent.body).toContain('Something went wrong');
      expect(sent.body).toContain(BRAND.paths.css);
      expect(sent.body).toContain('class="logo"');
    }
  });

  it('shows too many attempts as a 429 page in the brand already in memory, with Retry-After and no read', async () => {
    const b = brands({ known: BRAND, read: BRAND });
    const sent = await answer(filterOf(b.store), new RetryLaterError(ApiErrorCode.RateLimited, 'slow down', 30));
    expect(sent.status).toBe(429);
    expect(sent.headers['Retry-After']).toBe('30');
    expect(sent.body).toContain('Too many attempts');
    expect(sent.body).toContain(BRAND.paths.css);
    expect(b.calls.reads).toBe(0);
  });

  it('falls back to the platform’s own look off vanity domains', async () => {
    const sent = await answer(filterOf(brands({}).store), new Error('bug'));
    expect(sent.status).toBe(500);
    expect(sent.body).not.toContain('/signin/brand/');
  });

  it('records a provider failure no flow caught through the one recorder, once, and shows a 502 page', async () => {
    const o = outcomes();
    const sent = await answer(
      filterOf(brands({}).store, o.recorder),
      new UpstreamError('Google cannot be reached right now', 'ECONNREFUSED'),
    );
    expect(sent.status).toBe(502);
    expect(sent.body).toContain('Google cannot be reached right now');
    expect(o.refused).toEqual([
      { reason: RefusalReason.UpstreamError, detail: 'Google cannot be reached right now: ECONNREFUSED' },
    ]);
    await answer(filterOf(brands({}).store, o.recorder), new Error('bug'));
    expect(o.refused).toHaveLength(1);
  });
});
