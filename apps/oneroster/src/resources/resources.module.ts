import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { ResourcesController } from './resources.controller';

/** The OneRoster v1.1 resources service (four reads of imported data). */
@Module({ imports: [RosterModule], controllers: [ResourcesController] })
export class ResourcesModule {}
