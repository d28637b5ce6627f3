import { ApiError, ApiErrorCode } from '@edu/domain';
import { assertServedRegion } from './region';

describe('assertServedRegion', () => {
  it('lets a host without a region serve every tenant', () => {
    expect(() => assertServedRegion(undefined, 'SG')).not.toThrow();
    expect(() => assertServedRegion(undefined, null)).not.toThrow();
  });

  it('lets a regional host serve its own tenants only', () => {
    expect(() => assertServedRegion('AU-NSW', 'AU-NSW')).not.toThrow();
    for (const other of ['SG', null, undefined]) {
      let thrown: unknown;
      try {
        assertServedRegion('AU-NSW', other);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).code).toBe(ApiErrorCode.RegionMismatch);
      expect((thrown as ApiError).message).toBe(
        'This host serves region AU-NSW only; the tenant belongs to another region',
      );
    }
  });
});
