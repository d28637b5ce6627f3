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
import { EventStreamsRepository } from './push/event-streams.repository';
import { RosterEventPush } from './push/event-push.service';
import { PushQueue } from './push/push-queue';

/** The roster change feed: its pull API, its push to roster-events webhooks and the compaction of its log. */
@Module({
  imports: [RosterModule],
  controllers: [RosterEventsController],
  providers: [
    EventLogRepository,
    EventRenderer,
    RosterEventsService,
    EventCompaction,
    EventStreamsRepository,
    PushQueue,
    RosterEventPush,
    {
      provide: FeedCursors,
      inject: [OnerosterEnv],
      useFactory: (env: OnerosterEnv) => new FeedCursors(rosterEventsSecret(env)),
    },
  ],
})
export class RosterEventsModule {}
