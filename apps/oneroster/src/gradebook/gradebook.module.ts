import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { ONEROSTER_APIS, V1P2_API } from '../common/oneroster-api';
import { bulkPostsController } from './controllers/bulk-posts.controller';
import { classGradebookController } from './controllers/class-gradebook.controller';
import { classScoreScalesController } from './controllers/class-score-scales.controller';
import { SHARED_OBJECT_CONTROLLERS, V1P2_OBJECT_CONTROLLERS } from './controllers/gradebook-objects.controller';
import { GradebookHttp } from './gradebook-http';
import { GradebookPostsService } from './gradebook-posts.service';
import { GradebookReferences } from './gradebook-references';
import { GradebookWritesRepository } from './gradebook-writes.repository';
import { GradebookWritesService } from './gradebook-writes.service';

/** Operations both bindings serve. */
const SHARED = [...SHARED_OBJECT_CONTROLLERS, classGradebookController];
/** v1.2 only: score scales, assessments, the bulk POSTs. */
const V1P2_ONLY = [...V1P2_OBJECT_CONTROLLERS, classScoreScalesController, bulkPostsController];

/** The gradebook of both bindings: reads through the shared read path, writes here. */
@Module({
  imports: [RosterModule],
  controllers: [
    // Both bindings' routes of each controller side by side, as in RosterModule.
    ...SHARED.flatMap((controller) => ONEROSTER_APIS.map((api) => controller(api))),
    ...V1P2_ONLY.map((controller) => controller(V1P2_API)),
  ],
  providers: [
    GradebookWritesRepository,
    GradebookReferences,
    GradebookWritesService,
    GradebookPostsService,
    GradebookHttp,
  ],
})
export class GradebookModule {}
