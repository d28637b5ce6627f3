export * from './access-token.signer';
export * from './client-secret';
export * from './key-encryption';
export * from './signing-key.store';
export * from './webhook-token.signer';
export * from './self-signed-certificate';
export * from './standard-webhooks';
