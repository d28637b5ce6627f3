import { Module } from '@nestjs/common';
import { SharingModule } from '@edu/sharing';
import { IdentityEnv } from '../config/identity.env';
import { PeopleVisibility } from './people-visibility';
import { PersonIds } from './person-ids';
import { TenantUserRecords } from './tenant-user-records';
import { TenantUsersController } from './tenant-users.controller';
import { TenantUsersService } from './tenant-users.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [SharingModule],
  controllers: [UsersController, TenantUsersController],
  providers: [
    {
      provide: PersonIds,
      inject: [IdentityEnv],
      useFactory: (env: IdentityEnv) => PersonIds.fromSecret(env.KEY_ENCRYPTION_KEY),
    },
    TenantUserRecords,
    PeopleVisibility,
    UsersService,
    TenantUsersService,
  ],
  // Sign-in adds people just in time through the same code as the API.
  exports: [TenantUserRecords],
})
export class UsersModule {}
