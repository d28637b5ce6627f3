import type { DemoSignInConfig } from './index';

export function connectDemoLms(o: {
  identityUrl: string;
  lmsUrl: string;
  partnerUrl: string;
  config: DemoSignInConfig;
}): Promise<{ providerId: string; launchPage: string }>;
