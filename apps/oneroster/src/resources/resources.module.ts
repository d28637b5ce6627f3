import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { ONEROSTER_APIS, V1P2_API } from '../common/oneroster-api';
import { resourcesController } from './resources.controller';
import { userResourcesController } from './user-resources.controller';

/** The resources service of both bindings (reads of imported data); v1.2 adds a user's resources. */
@Module({
  imports: [RosterModule],
  controllers: [...ONEROSTER_APIS.map((api) => resourcesController(api)), userResourcesController(V1P2_API)],
})
export class ResourcesModule {}
