import type { DemoSignInConfig } from './index';

export function pointSchoolProviderAt(o: {
  identityUrl: string;
  upstreamUrl: string;
  config: DemoSignInConfig;
}): Promise<'kept' | 'moved'>;
