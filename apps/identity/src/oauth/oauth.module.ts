import { Module } from '@nestjs/common';
import { OAuthController } from './oauth.controller';
import { TokenService } from './token.service';

@Module({ controllers: [OAuthController], providers: [TokenService] })
export class OAuthModule {}
