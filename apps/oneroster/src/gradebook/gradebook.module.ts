import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { ONEROSTER_APIS, V1P2_API } from '../common/oneroster-api';
import { assessmentLineItemsController } from './controllers/assessment-line-items.controller';
import { assessmentResultsController } from './controllers/assessment-results.controller';
import { bulkPostsController } from './controllers/bulk-posts.controller';
import { categoriesController } from './controllers/categories.controller';
import { classGradebookController } from './controllers/class-gradebook.controller';
import { classScoreScalesController } from './controllers/class-score-scales.controller';
import { lineItemsController } from './controllers/line-items.controller';
import { resultsController } from './controllers/results.controller';
import { scoreScalesController } from './controllers/score-scales.controller';
import { GradebookHttp } from './gradebook-http';
import { GradebookPostsService } from './gradebook-posts.service';
import { GradebookReferences } from './gradebook-references';
import { GradebookWritesRepository } from './gradebook-writes.repository';
import { GradebookWritesService } from './gradebook-writes.service';

/** Operations both bindings serve. */
const SHARED = [categoriesController, lineItemsController, resultsController, classGradebookController];
/** v1.2 only: score scales, assessments, the bulk POSTs. */
const V1P2_ONLY = [scoreScalesController, classScoreScalesController, assessmentLineItemsController, assessmentResultsController, bulkPostsController];

/** The gradebook of both bindings: reads through the shared read path, writes here. */
@Module({
  imports: [RosterModule],
  controllers: [...ONEROSTER_APIS.flatMap((api) => SHARED.map((controller) => controller(api))), ...V1P2_ONLY.map((controller) => controller(V1P2_API))],
  providers: [GradebookWritesRepository, GradebookReferences, GradebookWritesService, GradebookPostsService, GradebookHttp],
})
export class GradebookModule {}
