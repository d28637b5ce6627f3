import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import {
  MAX_LIST_ENTRIES,
  MAX_RULES,
  RULE_FIELDS,
  RULE_OBJECTS,
  RULE_OPS,
  SHARING_MODES,
  WITHHOLD_CATEGORIES,
} from '@edu/sharing';

/**
 * The shape of a sharing body; what it means (a rule's field for its object, a value for its op,
 * a mode's lists) is checked by `specProblems` of `@edu/sharing`, which names the field at fault.
 */
export class SharingRuleDto {
  @ApiProperty({ enum: RULE_OBJECTS })
  @Allow()
  object: string;

  @ApiProperty({
    description: `A field of the object: class ${Object.keys(RULE_FIELDS.class).join(', ')}; user ${Object.keys(RULE_FIELDS.user).join(', ')}`,
  })
  @Allow()
  field: string;

  @ApiProperty({ enum: RULE_OPS })
  @Allow()
  op: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'A string; for `in` a list of strings',
  })
  @Allow()
  value: unknown;
}

export class SharingSpecDto {
  @ApiProperty({ enum: SHARING_MODES })
  @Allow()
  mode: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_LIST_ENTRIES, description: 'Org sourcedIds (mode `schools`)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST_ENTRIES)
  @IsString({ each: true })
  schools?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_LIST_ENTRIES, description: 'Class sourcedIds (mode `classes`)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST_ENTRIES)
  @IsString({ each: true })
  classes?: string[];

  @ApiPropertyOptional({
    type: [SharingRuleDto],
    maxItems: MAX_RULES,
    description: 'Mode `rules`: rules on classes and users; the rules of one object must all hold',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_RULES)
  @ValidateNested({ each: true })
  @Type(() => SharingRuleDto)
  rules?: SharingRuleDto[];

  @ApiPropertyOptional({
    enum: WITHHOLD_CATEGORIES,
    isArray: true,
    description: 'Field categories the app does not get',
  })
  @IsOptional()
  @IsArray()
  @IsIn(WITHHOLD_CATEGORIES, { each: true })
  withhold?: string[];
}

export class SharingPreviewQuery {
  @ApiPropertyOptional({ enum: ['draft', 'active'], default: 'draft' })
  @IsOptional()
  @IsIn(['draft', 'active'])
  state?: 'draft' | 'active';
}
