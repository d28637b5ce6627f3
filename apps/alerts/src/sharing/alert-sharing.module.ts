import { Module } from '@nestjs/common';
import { SharingModule } from '@edu/sharing';
import { AlertSharing } from './alert-sharing';
import { AlertSharingRepository } from './alert-sharing.repository';

/** The school's data sharing as alerts apply it (fan-out, redelivery, getMessage). */
@Module({
  imports: [SharingModule],
  providers: [AlertSharing, AlertSharingRepository],
  exports: [AlertSharing],
})
export class AlertSharingModule {}
