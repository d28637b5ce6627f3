import type { MigrationInterface } from 'typeorm';
import { CreateIdentityCore1763769600000 } from './1763769600000-CreateIdentityCore';
import { SeedRegions1763769600001 } from './1763769600001-SeedRegions';
import { CreateWebhooks1763769650000 } from './1763769650000-CreateWebhooks';
import { CreateIdentityDirectory1763769700000 } from './1763769700000-CreateIdentityDirectory';
import { CreateRosterTables1763769800000 } from './1763769800000-CreateRosterTables';
import { AddRosterUserFamilyNameCiIndex1763769900000 } from './1763769900000-AddRosterUserFamilyNameCiIndex';
import { AddRosterUserNameIndexes1763770000000 } from './1763770000000-AddRosterUserNameIndexes';
import { MoveUserProfilesToTenantUsers1763770100000 } from './1763770100000-MoveUserProfilesToTenantUsers';
import { CreateAlertDeliveries1763770200000 } from './1763770200000-CreateAlertDeliveries';
import { CreateRosterResources1763770300000 } from './1763770300000-CreateRosterResources';
import { CreateGradebook1763770400000 } from './1763770400000-CreateGradebook';
import { DropForeignKeysToReplicatedTables1763770500000 } from './1763770500000-DropForeignKeysToReplicatedTables';
import { AddOneRosterV1p21763770600000 } from './1763770600000-AddOneRosterV1p2';
import { CreateSignIn1763770700000 } from './1763770700000-CreateSignIn';
import { AddSignInTenantProviders1763770800000 } from './1763770800000-AddSignInTenantProviders';
import { AddGradebookDataVersions1763771900000 } from './1763771900000-AddGradebookDataVersions';
import { IncludeNamesInRosterUserNameIndexes1764200000000 } from './1764200000000-IncludeNamesInRosterUserNameIndexes';
import { AddDataSharing1764300000000 } from './1764300000000-AddDataSharing';
import { AddRosterEvents1764400000000 } from './1764400000000-AddRosterEvents';
import { AddDeliveryReason1764320000000 } from './1764320000000-AddDeliveryReason';
import { AddRosterSyncs1764500000000 } from './1764500000000-AddRosterSyncs';
import { AddWebhookSigningSecrets1764600000000 } from './1764600000000-AddWebhookSigningSecrets';
import { AddWebhookStatus1764610000000 } from './1764610000000-AddWebhookStatus';
import { AddWebhookHealth1764620000000 } from './1764620000000-AddWebhookHealth';
import { AddWebhookRateLimit1764630000000 } from './1764630000000-AddWebhookRateLimit';
import { AddPayloadRetention1764640000000 } from './1764640000000-AddPayloadRetention';
import { AddPortalSessions1764650000000 } from './1764650000000-AddPortalSessions';
import { AddRosterEventPush1764700000000 } from './1764700000000-AddRosterEventPush';
import { AddIdentityProviderDisplayName1764800000000 } from './1764800000000-AddIdentityProviderDisplayName';
import { AddRosterImportHeartbeat1764900000000 } from './1764900000000-AddRosterImportHeartbeat';
import { AddSharedUserRows1765100000000 } from './1765100000000-AddSharedUserRows';
import { ChunkRosterEvents1765200000000 } from './1765200000000-ChunkRosterEvents';
import { IncludeMembersInEnrollmentClassIndex1765300000000 } from './1765300000000-IncludeMembersInEnrollmentClassIndex';
import { StoreUserRolesAsText1765400000000 } from './1765400000000-StoreUserRolesAsText';
import { IndexResultsByClass1765500000000 } from './1765500000000-IndexResultsByClass';
import { ConvertUpdatedRowsOnce1765600000000 } from './1765600000000-ConvertUpdatedRowsOnce';

type MigrationClass = new () => MigrationInterface;

/** Every migration in order, listed explicitly. A shipped migration is never edited. */
export const MIGRATIONS: MigrationClass[] = [
  CreateIdentityCore1763769600000,
  SeedRegions1763769600001,
  CreateWebhooks1763769650000,
  CreateIdentityDirectory1763769700000,
  CreateRosterTables1763769800000,
  AddRosterUserFamilyNameCiIndex1763769900000,
  AddRosterUserNameIndexes1763770000000,
  MoveUserProfilesToTenantUsers1763770100000,
  CreateAlertDeliveries1763770200000,
  CreateRosterResources1763770300000,
  CreateGradebook1763770400000,
  DropForeignKeysToReplicatedTables1763770500000,
  AddOneRosterV1p21763770600000,
  CreateSignIn1763770700000,
  AddSignInTenantProviders1763770800000,
  AddGradebookDataVersions1763771900000,
  IncludeNamesInRosterUserNameIndexes1764200000000,
  AddDataSharing1764300000000,
  AddDeliveryReason1764320000000,
  AddRosterEvents1764400000000,
  AddRosterSyncs1764500000000,
  AddWebhookSigningSecrets1764600000000,
  AddWebhookStatus1764610000000,
  AddWebhookHealth1764620000000,
  AddWebhookRateLimit1764630000000,
  AddPayloadRetention1764640000000,
  AddPortalSessions1764650000000,
  AddRosterEventPush1764700000000,
  AddIdentityProviderDisplayName1764800000000,
  AddRosterImportHeartbeat1764900000000,
  AddSharedUserRows1765100000000,
  ChunkRosterEvents1765200000000,
  IncludeMembersInEnrollmentClassIndex1765300000000,
  StoreUserRolesAsText1765400000000,
  IndexResultsByClass1765500000000,
  ConvertUpdatedRowsOnce1765600000000,
];
