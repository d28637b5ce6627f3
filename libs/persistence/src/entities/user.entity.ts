import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A person (spec 2.7): one id per e-mail address (stored lower-case), whichever tenants they
 * belong to. It holds nothing a tenant supplied beyond the address itself: names, picture and
 * identity-provider identifiers are each tenant's own and live on the tenant-user link, so no
 * tenant ever reads or changes what another tenant stored about the person.
 */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index({ unique: true })
  @Column({ type: 'text' })
  email: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
