import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { ONEROSTER_APIS } from '../common/oneroster-api';
import { categoriesController } from './controllers/categories.controller';
import { classGradebookController } from './controllers/class-gradebook.controller';
import { lineItemsController } from './controllers/line-items.controller';
import { resultsController } from './controllers/results.controller';
import { GradebookHttp } from './gradebook-http';
import { GradebookWritesRepository } from './gradebook-writes.repository';
import { GradebookWritesService } from './gradebook-writes.service';

const CONTROLLERS = [categoriesController, lineItemsController, resultsController, classGradebookController];

/** The gradebook of both bindings: reads through the shared read path, PUT and DELETE here. */
@Module({
  imports: [RosterModule],
  controllers: ONEROSTER_APIS.flatMap((api) => CONTROLLERS.map((controller) => controller(api))),
  providers: [GradebookWritesRepository, GradebookWritesService, GradebookHttp],
})
export class GradebookModule {}
