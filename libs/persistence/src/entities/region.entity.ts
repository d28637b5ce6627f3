import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Hosting regions (spec 2.3 `region` object). Reference data, seeded by migration. */
@Entity({ name: 'regions' })
export class RegionEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  provider: string;

  @Column({ type: 'text', name: 'provider_region_id' })
  providerRegionId: string;

  @Column({ type: 'text' })
  region: string;

  @Column({ type: 'text', name: 'region_code' })
  regionCode: string;

  @Column({ type: 'text' })
  country: string;

  @Column({ type: 'char', length: 2, name: 'country_code' })
  countryCode: string;
}
