import { ApiProperty } from '@nestjs/swagger';
import type { DeveloperEntity } from '@edu/persistence';

/** An app developer as the operator sees it (the spec shows no developer object). */
export class DeveloperView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() email: string;
}

export function toDeveloperView(d: DeveloperEntity): DeveloperView {
  return { id: d.id, name: d.name, email: d.email };
}
