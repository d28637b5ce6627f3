import { Module } from '@nestjs/common';
import { V1P1_API, V1P2_API } from '../common/oneroster-api';
import { unsupportedController } from './controllers/unsupported.controller';

/**
 * The catch-alls under the service roots: imported after every OneRoster module so their routes
 * are registered last. v1.1 has one root; v1.2 one per service.
 */
@Module({
  controllers: [
    unsupportedController(V1P1_API, 'rostering'),
    ...(['rostering', 'gradebook', 'resources'] as const).map((s) => unsupportedController(V1P2_API, s)),
  ],
})
export class UnsupportedRoutesModule {}
