import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessTokenSigner, KeyEncryption, SigningKeyStore } from '@edu/signing';
import { IdentityEnv } from '../config/identity.env';
import { JwksController } from './jwks.controller';
import { SigningKeysBootstrap } from './signing-keys.bootstrap';

/** Signing keys, the access-token signer and the global JWKS document. */
@Global()
@Module({
  controllers: [JwksController],
  providers: [
    {
      provide: KeyEncryption,
      inject: [IdentityEnv],
      useFactory: (env: IdentityEnv) => new KeyEncryption(env.KEY_ENCRYPTION_KEY),
    },
    {
      provide: SigningKeyStore,
      inject: [DataSource, KeyEncryption],
      useFactory: (ds: DataSource, enc: KeyEncryption) => new SigningKeyStore(ds, enc),
    },
    {
      provide: AccessTokenSigner,
      inject: [SigningKeyStore, IdentityEnv],
      useFactory: (keys: SigningKeyStore, env: IdentityEnv) =>
        new AccessTokenSigner(keys, env.TOKEN_ISSUER, env.TOKEN_AUDIENCE, env.ACCESS_TOKEN_TTL_SECONDS),
    },
    SigningKeysBootstrap,
  ],
  exports: [SigningKeyStore, AccessTokenSigner, KeyEncryption],
})
export class KeysModule {}
