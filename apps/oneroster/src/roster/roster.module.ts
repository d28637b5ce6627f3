import { Module } from '@nestjs/common';
import { RosterAccessGuard } from '../tenancy/roster-access.guard';
import { TenantAccessService } from '../tenancy/tenant-access.service';
import { AcademicSessionsController } from './controllers/academic-sessions.controller';
import { ClassesController } from './controllers/classes.controller';
import { CoursesController } from './controllers/courses.controller';
import { DemographicsController } from './controllers/demographics.controller';
import { EnrollmentsController } from './controllers/enrollments.controller';
import { OrgsController } from './controllers/orgs.controller';
import { UsersController } from './controllers/users.controller';
import { RosterDb } from './roster-db';
import { RosterHttp } from './roster-http';
import { RosterVersionsService } from './roster-versions.service';
import { RosterRepository } from './roster.repository';
import { RosterService } from './roster.service';

const SHARED = [RosterDb, RosterRepository, RosterVersionsService, RosterService, RosterHttp, TenantAccessService, RosterAccessGuard];

/**
 * Every OneRoster v1.1 rostering read, and the read path, database access and access rules the
 * gradebook and resources services share. The catch-all is `UnsupportedRoutesModule`, imported last.
 */
@Module({
  controllers: [AcademicSessionsController, ClassesController, CoursesController, DemographicsController, EnrollmentsController, OrgsController, UsersController],
  providers: SHARED,
  exports: SHARED,
})
export class RosterModule {}
