import { Module } from '@nestjs/common';
import { RosterImportRepository } from './roster-import.repository';
import { RosterImportsController } from './roster-imports.controller';
import { RosterImportsService } from './roster-imports.service';

/** Operator imports of OneRoster CSV packages (the CLI shares the importer, not this module). */
@Module({
  controllers: [RosterImportsController],
  providers: [RosterImportsService, RosterImportRepository],
})
export class RosterImportsModule {}
