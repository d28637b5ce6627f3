import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A service-managed identity provider (spec 2.2, "core"): not tenant-specific, named by a
 * string id such as `google`. Reference data, seeded by migration.
 */
@Entity({ name: 'core_identity_providers' })
export class CoreIdentityProviderEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** SVG document. */
  @Column({ type: 'text', name: 'button_graphic' })
  buttonGraphic: string;
}
