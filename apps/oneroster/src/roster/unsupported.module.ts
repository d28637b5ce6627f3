import { Module } from '@nestjs/common';
import { UnsupportedController } from './controllers/unsupported.controller';

/** The catch-all under the service root: imported after every OneRoster module so its route is registered last. */
@Module({ controllers: [UnsupportedController] })
export class UnsupportedRoutesModule {}
