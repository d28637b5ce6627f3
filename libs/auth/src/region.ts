import { ApiError, ApiErrorCode } from '@edu/domain';

/**
 * The one region rule (design §4): a regional host (`SERVICE_REGION` set) serves only tenants of
 * its region; a tenant of another region, or of none known here, is refused with 403 `wrong_region`.
 * A host without a region serves every tenant.
 */
export function assertServedRegion(serviceRegion: string | undefined, tenantRegion: string | null | undefined): void {
  if (serviceRegion && tenantRegion !== serviceRegion) {
    throw new ApiError(
      ApiErrorCode.RegionMismatch,
      `This host serves region ${serviceRegion} only; the tenant belongs to another region`,
    );
  }
}
