import { ApiProperty } from '@nestjs/swagger';
import { AUDIT_EVENT_TYPES, type AuditEventType } from '@edu/persistence';
import type { AuditEventRow } from './audit-event.repository';

class AuditActorView {
  @ApiProperty({ enum: ['operator', 'tenant'] }) kind: 'operator' | 'tenant';
  @ApiProperty({ description: 'The token’s subject: the app acting for the school’s admins, or `operator`' })
  sub: string;
  @ApiProperty() client_id: string;
}

/** One change at the tenant, as the tenant reads it. */
export class AuditEventView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time' }) time: string;
  @ApiProperty({ format: 'uuid' }) tenant_id: string;
  @ApiProperty({ enum: AUDIT_EVENT_TYPES }) type: AuditEventType;
  @ApiProperty({ type: AuditActorView }) actor: AuditActorView;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The app whose sharing changed' })
  app_id: string | null;
  @ApiProperty({
    description: 'The state before the change (a sharing spec), null when there was none',
    nullable: true,
  })
  before: unknown;
  @ApiProperty({ description: 'The state after the change', nullable: true })
  after: unknown;
}

export interface AuditEventPage {
  rows: AuditEventView[];
  nextCursor: string | null;
}

export function toAuditEventView(r: AuditEventRow): AuditEventView {
  return {
    id: r.id,
    time: r.cursorAt,
    tenant_id: r.tenantId,
    type: r.type,
    actor: r.actor,
    app_id: r.appId,
    before: r.before ?? null,
    after: r.after ?? null,
  };
}
