import { ApiProperty } from '@nestjs/swagger';
import type { ConstituencyEntity } from '@edu/persistence';

/** Spec 2.5. */
export class ConstituencyView {
  @ApiProperty({ example: 'staff' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() enable_self_service_provisioning: boolean;
  @ApiProperty({ type: [String] }) allowed_identity_providers: string[];
}

export function toConstituencyView(c: ConstituencyEntity): ConstituencyView {
  return {
    id: c.id,
    name: c.name,
    enable_self_service_provisioning: c.enableSelfServiceProvisioning,
    allowed_identity_providers: [...c.allowedIdentityProviders],
  };
}
