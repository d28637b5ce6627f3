import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { AppOwnerDto, CreateAppDto } from '../apps/dto/app.dto';
import { CreateConstituencyDto } from '../constituencies/dto/constituency.dto';
import { CreateDeploymentDto } from '../deployments/dto/deployment.dto';
import { CreateDeveloperDto } from '../developers/dto/developer.dto';
import { CreateIdentityProviderDto } from '../identity-providers/dto/identity-provider.dto';
import { CreateTenantDto } from '../tenants/dto/tenant.dto';
import { CreateUserDto, TenantUserLinkDto } from '../users/dto/user.dto';
import { CreateVanityDomainDto } from '../vanity-domains/dto/vanity-domain.dto';
import { IsUniqueList } from '../common/validation/validators';

/*
 * Records of a provisioning file. Each is the API's create body plus the keys the API assigns
 * itself (ids, owners), so that a file names every object stably and loading it twice changes
 * nothing. Field rules are the API's own.
 */

const CLIENT_ID = /^[A-Za-z0-9._~-]{8,128}$/;
const CLIENT_ID_RULE = { message: 'must be 8 to 128 characters of letters, digits, ".", "_", "~" or "-"' };

export class TenantRecord extends CreateTenantDto {
  @IsUUID('all') id: string;
}

export class DeveloperRecord extends CreateDeveloperDto {
  @IsUUID('all') id: string;
}

/**
 * `client_id` is generated at first load when omitted. `client_secret` is stored hashed; when
 * omitted a secret is generated at first load and printed once. A re-load never rotates a secret
 * that still matches the file.
 */
export class AppRecord extends CreateAppDto {
  @IsUUID('all') id: string;
  @IsObject() @ValidateNested() @Type(() => AppOwnerDto) owner: AppOwnerDto;
  @IsOptional() @IsString() @Matches(CLIENT_ID, CLIENT_ID_RULE) client_id?: string;
  @IsOptional() @IsString() @Length(16, 256) client_secret?: string;
}

export class IdentityProviderRecord extends CreateIdentityProviderDto {
  @IsUUID('all') id: string;
  /** Owning tenant (as in the read shape). */
  @IsUUID('all') tenant: string;
}

export class ConstituencyRecord extends CreateConstituencyDto {
  @IsUUID('all') tenant_id: string;
}

/** The profile the file gives the person at each tenant its `tenant_users` records add them to. */
export class UserRecord extends CreateUserDto {
  /** Optional: users are matched by e-mail; a new user gets this id (or a random one). */
  @IsOptional() @IsUUID('all') id?: string;
}

/** A tenant's record of a person; the profile comes from the file's `users` record of the same e-mail. */
export class TenantUserRecord extends TenantUserLinkDto {
  @IsUUID('all') tenant_id: string;
}

/** `settings` (optional, the API's rules): the settings named are set, the others keep their stored value. */
export class DeploymentRecord extends CreateDeploymentDto {
  /** Optional: deployments are matched by (tenant_id, app_id). */
  @IsOptional() @IsUUID('all') id?: string;
  @IsUUID('all') tenant_id: string;
  @IsOptional() @IsString() @Matches(CLIENT_ID, CLIENT_ID_RULE) client_id?: string;
  @IsOptional() @IsString() @Length(16, 256) client_secret?: string;
}

export class DomainOwnerRecord {
  @IsIn(['tenant']) type: 'tenant';
  @IsUUID('all') id: string;
}

export class VanityDomainRecord extends CreateVanityDomainDto {
  @IsObject() @ValidateNested() @Type(() => DomainOwnerRecord) owner: DomainOwnerRecord;

  /** Tenants the domain serves; defaults to the owner, must include it. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  @IsUniqueList()
  tenants?: string[];
}

/** Sections of a provisioning file, in load order, with the record class of each. */
export const SECTIONS = {
  developers: DeveloperRecord,
  tenants: TenantRecord,
  apps: AppRecord,
  identity_providers: IdentityProviderRecord,
  constituencies: ConstituencyRecord,
  users: UserRecord,
  tenant_users: TenantUserRecord,
  deployments: DeploymentRecord,
  vanity_domains: VanityDomainRecord,
} as const;

export type SectionName = keyof typeof SECTIONS;

export type ProvisionFile = { [K in SectionName]: InstanceType<(typeof SECTIONS)[K]>[] };
