import { Module } from '@nestjs/common';
import { ClientAuthenticationsModule } from '@edu/rate-limit';
import { OAuthController } from './oauth.controller';
import { TokenService } from './token.service';

@Module({ imports: [ClientAuthenticationsModule], controllers: [OAuthController], providers: [TokenService] })
export class OAuthModule {}
