import { Module } from '@nestjs/common';
import { SignInSqlModule } from '../sign-in-sql';
import { SignInEventRepository } from './sign-in-event.repository';
import { SignInLogRetention } from './sign-in-log-retention';
import { SignInOutcomes } from './sign-in-outcomes';

/** The sign-in log: written by sign-in (`SignInOutcomes`, the one recorder), read by the host's API through the repository. */
@Module({
  imports: [SignInSqlModule],
  providers: [SignInEventRepository, SignInOutcomes, SignInLogRetention],
  exports: [SignInOutcomes, SignInEventRepository],
})
export class SignInLogModule {}
