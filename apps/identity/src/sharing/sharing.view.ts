import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PREVIEWED_COLLECTIONS, type SharingPreview, type SharingSpec } from '@edu/sharing';
import type { DeploymentSharingEntity } from '@edu/persistence';
import { SharingRuleDto } from './dto/sharing.dto';

export class SharingSpecView {
  @ApiProperty({ enum: ['all', 'schools', 'classes', 'rules'] }) mode: string;
  @ApiProperty({ type: [String] }) schools: string[];
  @ApiProperty({ type: [String] }) classes: string[];
  @ApiProperty({ type: [SharingRuleDto] }) rules: SharingRuleDto[];
  @ApiProperty({ type: [String] }) withhold: string[];
}

export class ActiveSharingView extends SharingSpecView {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null: never activated (everything shared)',
  })
  activated_at: string | null;
}

export class DraftSharingView extends SharingSpecView {
  @ApiProperty({ format: 'date-time' }) saved_at: string;
}

export class SharingView {
  @ApiProperty({ type: ActiveSharingView }) active: ActiveSharingView;
  @ApiProperty({ type: DraftSharingView, nullable: true }) draft: DraftSharingView | null;
}

export class CollectionPreviewView {
  @ApiProperty({ description: 'What the collection read (getAll*) then answers in X-Total-Count' }) count: number;
  @ApiProperty({ type: [String], description: 'Its first sourcedIds in default order' }) first: string[];
}

export class SharingPreviewView {
  @ApiProperty({ enum: ['draft', 'active'] }) state: 'draft' | 'active';
  @ApiProperty({ type: SharingSpecView }) sharing: SharingSpecView;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/CollectionPreviewView' },
    description: `Per collection: ${PREVIEWED_COLLECTIONS.join(', ')}`,
  })
  collections: Record<string, CollectionPreviewView>;
  @ApiPropertyOptional({
    description: 'Listed sourcedIds the roster does not (yet) hold: `{schools: [...], classes: [...]}`',
  })
  unmatched: { schools: string[]; classes: string[] };
}

export function toSpecView(spec: SharingSpec): SharingSpecView {
  return {
    mode: spec.mode,
    schools: [...spec.schools],
    classes: [...spec.classes],
    rules: spec.rules.map((r) => ({ ...r, value: typeof r.value === 'string' ? r.value : [...r.value] })),
    withhold: [...spec.withhold],
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSharingView(
  row: DeploymentSharingEntity | null,
  active: SharingSpec,
  draft: SharingSpec | null,
): SharingView {
  return {
    active: { ...toSpecView(active), activated_at: iso(row?.activatedAt ?? null) },
    draft: draft && row ? { ...toSpecView(draft), saved_at: iso(row.draftSavedAt) as string } : null,
  };
}

export function toPreviewView(state: 'draft' | 'active', spec: SharingSpec, p: SharingPreview): SharingPreviewView {
  return { state, sharing: toSpecView(spec), collections: p.collections, unmatched: p.unmatched };
}
