import { Module } from '@nestjs/common';
import { SharingReader } from './active-sharing';
import { SharedPeople } from './people';
import { PersonSharing } from './person-sharing';
import { SharingPreviewer } from './sharing-preview';
import { SharingScopes } from './sharing-scopes';

/** Data sharing's read side for any service on the platform's pool (PersistenceModule provides `Pool`). */
@Module({
  providers: [SharingReader, SharingScopes, SharingPreviewer, SharedPeople, PersonSharing],
  exports: [SharingReader, SharingScopes, SharingPreviewer, SharedPeople, PersonSharing],
})
export class SharingModule {}
