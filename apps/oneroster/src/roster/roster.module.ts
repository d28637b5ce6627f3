import { Module } from '@nestjs/common';
import { RosterAccessGuard } from '../tenancy/roster-access.guard';
import { TenantAccessService } from '../tenancy/tenant-access.service';
import { AcademicSessionsController } from './controllers/academic-sessions.controller';
import { ClassesController } from './controllers/classes.controller';
import { CoursesController } from './controllers/courses.controller';
import { DemographicsController } from './controllers/demographics.controller';
import { EnrollmentsController } from './controllers/enrollments.controller';
import { OrgsController } from './controllers/orgs.controller';
import { UnsupportedController } from './controllers/unsupported.controller';
import { UsersController } from './controllers/users.controller';
import { RosterDb } from './roster-db';
import { RosterHttp } from './roster-http';
import { RosterVersionsService } from './roster-versions.service';
import { RosterRepository } from './roster.repository';
import { RosterService } from './roster.service';

/** Every OneRoster v1.1 rostering read. `UnsupportedController` must stay last (catch-all). */
@Module({
  controllers: [
    AcademicSessionsController,
    ClassesController,
    CoursesController,
    DemographicsController,
    EnrollmentsController,
    OrgsController,
    UsersController,
    UnsupportedController,
  ],
  providers: [RosterDb, RosterRepository, RosterVersionsService, RosterService, RosterHttp, TenantAccessService, RosterAccessGuard],
})
export class RosterModule {}
