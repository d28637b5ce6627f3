import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Licence } from '@edu/domain';
import { RegionEntity } from './region.entity';

/** A school or an enterprise (district, diocese, trust) account. */
@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Index({ unique: true })
  @Column({ type: 'integer', name: 'customer_id' })
  customerId: number;

  @Column({ type: 'text', name: 'govt_id' })
  govtId: string;

  @Column({ type: 'text', default: 'PRODUCTION' })
  environment: string;

  @Column({ type: 'text', default: 'NORMAL' })
  status: string;

  @Index()
  @Column({ type: 'text', name: 'region_id' })
  regionId: string;

  @ManyToOne(() => RegionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'region_id' })
  region?: RegionEntity;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  licences: Licence[];

  /** sourcedId of the tenant's root OneRoster org (design §4). */
  @Column({ type: 'text', name: 'root_org_sourced_id', nullable: true })
  rootOrgSourcedId: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
