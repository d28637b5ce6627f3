import { Module } from '@nestjs/common';
import { SignInLogModule } from '@edu/sign-in';
import { SignInEventsController } from './sign-in-events.controller';
import { SignInEventsService } from './sign-in-events.service';

/** GET /tenants/:id/sign-ins: the Identity API's read of the sign-in log that sign-in writes. */
@Module({ imports: [SignInLogModule], controllers: [SignInEventsController], providers: [SignInEventsService] })
export class SignInLogApiModule {}
