import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export interface UserIdpIdentifier {
  id: string;
  /** A core provider name or the uuid of a tenant-specific provider. */
  idp_id: string;
}

/**
 * A person (spec 2.7). Users are global, keyed by e-mail address (stored lower-case), and reach
 * tenants only through tenant-user links.
 */
@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index({ unique: true })
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  nickname: string;

  @Column({ type: 'text' })
  picture: string;

  @Column({ type: 'jsonb', name: 'idp_identifiers', default: () => "'[]'" })
  idpIdentifiers: UserIdpIdentifier[];

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
