import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { ONEROSTER_APIS } from '../common/oneroster-api';
import { resourcesController } from './resources.controller';

/** The resources service of both bindings (reads of imported data). */
@Module({ imports: [RosterModule], controllers: ONEROSTER_APIS.map((api) => resourcesController(api)) })
export class ResourcesModule {}
