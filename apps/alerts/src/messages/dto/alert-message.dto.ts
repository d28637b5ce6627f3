import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  Max,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { BracketFieldPaths } from '@edu/http';

/*
 * A generated alert message as the alert generator submits it: spec 2.10 without `message_id`,
 * `method` and the three counters (the service assigns or counts those). Every field is required
 * and typed; unknown properties are refused at any depth by the validation rules.
 */

const TEXT = 2_000;
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
export const ROW_TYPES = ['type', 'trigger', 'link', 'detail'] as const;

export class IdentifiersDto {
  @IsString() @MaxLength(TEXT) sis_id: string;
  @IsString() @MaxLength(TEXT) lms_guid: string;
}

export class RecipientDto {
  @IsUUID('all') entity_uuid: string;
  @IsString() @MaxLength(TEXT) ext_id: string;
  @IsString() @MaxLength(TEXT) name: string;
  @IsString() @MaxLength(TEXT) first_name: string;
  @IsString() @MaxLength(TEXT) last_name: string;
  @IsString() @MaxLength(TEXT) preferred_name: string;
  @IsEmail() @MaxLength(320) primary_email: string;
  @IsObject() @ValidateNested() @Type(() => IdentifiersDto) identifiers: IdentifiersDto;
}

export class BadgeDto {
  @IsString() @MaxLength(TEXT) value: string;
  @Matches(HEX_COLOR, { message: 'color must be a hex colour #RRGGBB' }) color: string;
}

export class TriggerDto {
  @IsString() @MaxLength(TEXT) type: string;
  @IsString() @MaxLength(TEXT) threshold_period: string;
}

/** A row: `value` text, or for `detail` rows a `list` of texts. */
export class RowDto {
  @IsIn(ROW_TYPES) type: (typeof ROW_TYPES)[number];
  @IsString() @MaxLength(TEXT) key: string;

  @ValidateIf((r: RowDto) => r.type !== 'detail' || r.value !== undefined)
  @IsString({ message: 'value must be a string (rows other than detail rows carry a value)' })
  @MaxLength(20_000)
  value?: string;

  @ValidateIf((r: RowDto) => r.type === 'detail' || r.list !== undefined)
  @IsArray({ message: 'list must be an array of strings (detail rows carry a list)' })
  @ArrayMaxSize(1_000)
  @IsString({ each: true })
  @MaxLength(TEXT, { each: true })
  list?: string[];
}

export class EntityDto {
  @IsUUID('all') uuid: string;
  @IsString() @MaxLength(TEXT) ext_id: string;
  @IsString() @MaxLength(TEXT) first_name: string;
  @IsString() @MaxLength(TEXT) preferred_name: string;
  @IsString() @MaxLength(TEXT) last_name: string;
  @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(100, { each: true }) pronouns: string[];
  @IsObject() @ValidateNested() @Type(() => IdentifiersDto) identifiers: IdentifiersDto;
}

export class StudentDto {
  @IsUUID('all') uuid: string;
  @IsString() @MaxLength(TEXT) current_homeroom: string;
  @IsInt() @Min(-5) @Max(30) current_year_level: number;
}

export class AlertItemDto {
  @IsString() @MaxLength(TEXT) name: string;
  @IsUUID('all') id: string;
  @IsUUID('all') type: string;
  @IsObject() @ValidateNested() @Type(() => TriggerDto) trigger: TriggerDto;
  @IsArray() @ArrayMaxSize(1_000) @ValidateNested({ each: true }) @Type(() => RowDto) rows: RowDto[];
  @IsObject() @ValidateNested() @Type(() => EntityDto) entity: EntityDto;
  @IsObject() @ValidateNested() @Type(() => StudentDto) student: StudentDto;
}

export class AlertGroupDto {
  @IsString() @MaxLength(TEXT) name: string;
  @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => BadgeDto) badges: BadgeDto[];
  @IsString() @MaxLength(200) alert_count: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => AlertItemDto)
  alerts: AlertItemDto[];
}

export class NewAlertMessageDto {
  @IsString() @MinLength(1) @MaxLength(200) transaction_id: string;
  @IsObject() @ValidateNested() @Type(() => RecipientDto) recipient: RecipientDto;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1_000)
  @ValidateNested({ each: true })
  @Type(() => AlertGroupDto)
  alerts: AlertGroupDto[];
}

export const MAX_MESSAGES_PER_BATCH = 1_000;

@BracketFieldPaths()
export class SubmitMessagesDto {
  @ApiProperty({ format: 'uuid', description: 'Tenant the messages belong to' })
  @IsUUID('all')
  tenant_id: string;

  @ApiProperty({
    type: [Object],
    description: 'Spec 2.10 messages without message_id, method and the counters (1 to 1,000)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MESSAGES_PER_BATCH)
  @ValidateNested({ each: true })
  @Type(() => NewAlertMessageDto)
  messages: NewAlertMessageDto[];
}
