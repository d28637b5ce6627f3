import { Module } from '@nestjs/common';
import { SignInEventRepository } from './sign-in-event.repository';
import { SignInEventsController } from './sign-in-events.controller';
import { SignInEventsService } from './sign-in-events.service';
import { SignInLog } from './sign-in-log';
import { SignInLogRetention } from './sign-in-log-retention';

/** The sign-in log: written by the portal (SignInLog), read by tenants (GET /tenants/:id/sign-ins). */
@Module({
  controllers: [SignInEventsController],
  providers: [SignInEventRepository, SignInLog, SignInEventsService, SignInLogRetention],
  exports: [SignInLog],
})
export class SignInLogModule {}
