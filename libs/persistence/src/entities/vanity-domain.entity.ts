import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { TenantEntity } from './tenant.entity';

export type VanityDomainStatus = 'PENDING_DNS';

export interface TypefaceEntry {
  name: string;
  /** `file`, or the name of a public font library. */
  source: string;
  /** Only with `source: file`. */
  file_type?: string;
  /** Base64 font file; only with `source: file`. */
  file?: string;
}

export interface BrandConfiguration {
  portal_name: string;
  primary_color: string;
  secondary_color: string;
  typefaces: { sans: TypefaceEntry[]; serif: TypefaceEntry[] };
  font_styles: { header: string[]; prose: string[] };
  layout: string;
  logo: { light: string; dark: string };
  background: {
    color: { dark: string; light: string };
    gradient: { from: string; via: string | null; to: string };
    image: string | null;
    position: string;
    repeat: string;
    size: string;
  };
}

/** A tenant's own portal domain and its branding (spec 2.8). */
@Entity({ name: 'vanity_domains' })
@Index(['tenantId'])
export class VanityDomainEntity {
  /** Fully-qualified domain name, lower-case, no trailing dot. */
  @PrimaryColumn({ type: 'text' })
  domain: string;

  /** The owning tenant. */
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  /** Tenants the domain serves (always includes the owner). */
  @Column({ type: 'uuid', array: true })
  tenants: string[];

  @Column({ type: 'text', default: 'PENDING_DNS' })
  status: VanityDomainStatus;

  @Column({ type: 'jsonb', name: 'brand_configuration' })
  brandConfiguration: BrandConfiguration;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
