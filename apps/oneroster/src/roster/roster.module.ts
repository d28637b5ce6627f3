import { Module } from '@nestjs/common';
import { MetricsModule } from '@edu/http';
import { SharingModule } from '@edu/sharing';
import { RosterAccessGuard } from '../tenancy/roster-access.guard';
import { TenantAccessService } from '../tenancy/tenant-access.service';
import { RosterSharing } from '../tenancy/roster-sharing';
import { ONEROSTER_APIS } from '../common/oneroster-api';
import { CachingMetrics } from '../caching/caching.metrics';
import { ConditionalReads } from '../caching/conditional-reads';
import { DataVersionReader } from '../caching/data-versions';
import { ResponseCache } from '../caching/response-cache';
import { academicSessionsController } from './controllers/academic-sessions.controller';
import { classesController } from './controllers/classes.controller';
import { coursesController } from './controllers/courses.controller';
import { demographicsController } from './controllers/demographics.controller';
import { enrollmentsController } from './controllers/enrollments.controller';
import { orgsController, schoolClassReadsController, schoolReadsController } from './controllers/orgs.controller';
import { usersController } from './controllers/users.controller';
import { RosterDb } from '../db/roster-db';
import { RosterHttp } from './roster-http';
import { RosterVersionsService } from '../tenancy/roster-versions.service';
import { RosterRepository } from './roster.repository';
import { RosterService } from './roster.service';

const SHARED = [
  RosterDb,
  RosterRepository,
  RosterVersionsService,
  RosterService,
  RosterHttp,
  TenantAccessService,
  RosterSharing,
  RosterAccessGuard,
  DataVersionReader,
  ResponseCache,
  CachingMetrics,
  ConditionalReads,
];

const CONTROLLERS = [
  academicSessionsController,
  classesController,
  coursesController,
  demographicsController,
  enrollmentsController,
  orgsController,
  schoolReadsController,
  schoolClassReadsController,
  usersController,
];

/**
 * Every rostering read of both bindings (v1.1 and the v1.2 rostering service, the same 41
 * operations on the same data), and the read path, database access and access rules the
 * gradebook and resources services share. The catch-all is `UnsupportedRoutesModule`, imported last.
 */
@Module({
  imports: [MetricsModule, SharingModule],
  // Each controller's routes for both bindings side by side: the router tries routes in order, so
  // a 1.2 read is found as soon as its 1.1 twin would be, not after every 1.1 route.
  controllers: CONTROLLERS.flatMap((controller) => ONEROSTER_APIS.map((api) => controller(api))),
  providers: SHARED,
  exports: [...SHARED, SharingModule],
})
export class RosterModule {}
