import { Module } from '@nestjs/common';
import { OnerosterEnv } from '../oneroster.env';
import { rosterEventsSecret } from './events.env';
import { RosterModule } from '../roster/roster.module';
import { FeedCursors } from './event-cursor';
import { EventCompaction } from './event-compaction';
import { EventLogRepository } from './event-log.repository';
import { EventRenderer } from './event-render';
import { RosterEventsController } from './events.controller';
import { RosterEventsService } from './events.service';

/** The roster change feed: its pull API and the compaction of its log. */
@Module({
  imports: [RosterModule],
  controllers: [RosterEventsController],
  providers: [
    EventLogRepository,
    EventRenderer,
    RosterEventsService,
    EventCompaction,
    {
      provide: FeedCursors,
      inject: [OnerosterEnv],
      useFactory: (env: OnerosterEnv) => new FeedCursors(rosterEventsSecret(env)),
    },
  ],
})
export class RosterEventsModule {}
