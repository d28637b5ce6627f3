import { createRequire } from 'node:module';

// The alerts demo of `npm start` (receiver, webhook registration, configuration): plain JS under
// tools/ (outside the TypeScript project graph), loaded at run time with the types of their .d.ts files.
const load = createRequire(__filename);

export const { demoAlertsConfig } = load(
  '../../tools/demo/alerts/config',
) as typeof import('../../tools/demo/alerts/config');
export const { startReceiver } = load(
  '../../tools/demo/alerts/receiver',
) as typeof import('../../tools/demo/alerts/receiver');
export const { registerDemoWebhooks } = load(
  '../../tools/demo/alerts/webhooks',
) as typeof import('../../tools/demo/alerts/webhooks');
export type DemoAlertsConfig = ReturnType<typeof demoAlertsConfig>;
export type DemoReceiver = Awaited<ReturnType<typeof startReceiver>>;

// The demo's data sharing (Maths Quest sees Lion City's maths classes, contact withheld).
export const { shareDemoData, demoSharingConfig } = load(
  '../../tools/demo/sharing/share',
) as typeof import('../../tools/demo/sharing/share');
