import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@edu/auth';
import { SigningKeyStore } from '@edu/signing';
import { JWKS_MAX_AGE_SECONDS } from './keys-command';

/** The global JWKS: every public key in use (access tokens, webhook JWTs, sign-in ID tokens; told apart by kid). */
@ApiTags('oauth')
@Controller('.well-known')
export class JwksController {
  constructor(private readonly keys: SigningKeyStore) {}

  @Get('jwks.json')
  @Public()
  @Header('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
  @ApiOkResponse({ description: 'JSON Web Key Set (RFC 7517)' })
  async jwks(): Promise<{ keys: unknown[] }> {
    // Make sure both key kinds exist before anyone needs to verify with them.
    await Promise.all([
      this.keys.activeKey('access-token'),
      this.keys.activeKey('webhook'),
      this.keys.activeKey('oidc'),
    ]);
    return { keys: await this.keys.publishedKeys() };
  }
}
