import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { CategoriesController } from './controllers/categories.controller';
import { ClassGradebookController } from './controllers/class-gradebook.controller';
import { LineItemsController } from './controllers/line-items.controller';
import { ResultsController } from './controllers/results.controller';
import { GradebookHttp } from './gradebook-http';
import { GradebookWritesRepository } from './gradebook-writes.repository';
import { GradebookWritesService } from './gradebook-writes.service';

/** The OneRoster v1.1 gradebook service: reads through the shared read path, PUT and DELETE here. */
@Module({
  imports: [RosterModule],
  controllers: [CategoriesController, LineItemsController, ResultsController, ClassGradebookController],
  providers: [GradebookWritesRepository, GradebookWritesService, GradebookHttp],
})
export class GradebookModule {}
