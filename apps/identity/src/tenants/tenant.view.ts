import { ApiProperty } from '@nestjs/swagger';
import { LICENCES, type Licence } from '@edu/domain';
import type { RegionEntity, TenantEntity } from '@edu/persistence';

export class RegionView {
  @ApiProperty({ example: 'AU-NSW' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() provider: string;
  @ApiProperty() provider_region_id: string;
  @ApiProperty() region: string;
  @ApiProperty() region_code: string;
  @ApiProperty() country: string;
  @ApiProperty({ minLength: 2, maxLength: 2 }) country_code: string;
}

/** Spec 2.3. */
export class TenantView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty() govt_id: string;
  @ApiProperty({ example: 'PRODUCTION' }) environment: string;
  @ApiProperty({ example: 'NORMAL' }) status: string;
  @ApiProperty({ type: RegionView }) region: RegionView;
}

/** What the operator (platform.admin) sees: the spec shape plus licences and the root org. */
export class TenantAdminView extends TenantView {
  @ApiProperty({ enum: LICENCES, isArray: true }) licences: Licence[];
  @ApiProperty({ type: String, nullable: true }) root_org_sourced_id: string | null;
}

export function toRegionView(r: RegionEntity): RegionView {
  return {
    id: r.id,
    name: r.name,
    provider: r.provider,
    provider_region_id: r.providerRegionId,
    region: r.region,
    region_code: r.regionCode,
    country: r.country,
    country_code: r.countryCode,
  };
}

export function toTenantView(t: TenantEntity & { region: RegionEntity }): TenantView {
  return {
    id: t.id,
    name: t.name,
    customer_id: t.customerId,
    govt_id: t.govtId,
    environment: t.environment,
    status: t.status,
    region: toRegionView(t.region),
  };
}

export function toTenantAdminView(t: TenantEntity & { region: RegionEntity }): TenantAdminView {
  return { ...toTenantView(t), licences: [...t.licences], root_org_sourced_id: t.rootOrgSourcedId };
}
