import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsFQDN,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  registerDecorator,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { FQDN_OPTIONS } from '../../common/ids';
import { FONT_FILE_TYPES, IMAGE_MAX_BYTES } from '@edu/content-checks';
import {
  EachObject,
  IsFontFile,
  IsFontStyle,
  IsHexColor,
  IsImage,
  PresentOnlyWhen,
} from '../../common/validation/validators';

export const LAYOUTS = ['center', 'left', 'right'] as const;
export const BACKGROUND_POSITIONS = ['center', 'top', 'bottom', 'left', 'right'] as const;
export const BACKGROUND_REPEATS = ['no-repeat', 'repeat', 'repeat-x', 'repeat-y'] as const;
export const BACKGROUND_SIZES = ['cover', 'contain', 'auto'] as const;

/** `file_type` when present (PresentOnlyWhen decides whether it may be). */
function IsFontFileType(o?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isFontFileType',
      target: target.constructor,
      propertyName: propertyName as string,
      options: o,
      validator: {
        validate: (v: unknown) => v === undefined || v === null || FONT_FILE_TYPES.includes(v as string),
        defaultMessage: () => `must be one of: ${FONT_FILE_TYPES.join(', ')}`,
      },
    });
}

export class TypefaceDto {
  @ApiProperty({ example: 'Inter' }) @IsString() @Length(1, 100) name: string;

  @ApiProperty({ example: 'google', description: '`file`, or the name of a public font library' })
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,39}$/, { message: 'must be "file" or a font library name such as google' })
  source: string;

  @ApiPropertyOptional({ enum: FONT_FILE_TYPES, description: 'Only with source: file' })
  @PresentOnlyWhen('source', 'file')
  @IsFontFileType()
  file_type?: string;

  @ApiPropertyOptional({ description: 'Base64 font file, at most 512 KiB; only with source: file' })
  @PresentOnlyWhen('source', 'file')
  @IsFontFile()
  file?: string;
}

export class TypefacesDto {
  @ApiProperty({ type: [TypefaceDto] })
  @IsArray()
  @ArrayMaxSize(10)
  @EachObject()
  @ValidateNested({ each: true })
  @Type(() => TypefaceDto)
  sans: TypefaceDto[];
  @ApiProperty({ type: [TypefaceDto] })
  @IsArray()
  @ArrayMaxSize(10)
  @EachObject()
  @ValidateNested({ each: true })
  @Type(() => TypefaceDto)
  serif: TypefaceDto[];
}

export class FontStylesDto {
  @ApiProperty({ type: [String], example: ['sans', 'font-semibold'] }) @IsFontStyle() header: string[];
  @ApiProperty({ type: [String], example: ['serif'] }) @IsFontStyle() prose: string[];
}

const IMAGE = 'SVG document or base64-encoded PNG, at most 256 KiB';

export class LogoDto {
  @ApiProperty({ description: IMAGE }) @IsImage(IMAGE_MAX_BYTES) light: string;
  @ApiProperty({ description: IMAGE }) @IsImage(IMAGE_MAX_BYTES) dark: string;
}

export class ColorPairDto {
  @ApiProperty({ example: '#0b1f3a' }) @IsHexColor() dark: string;
  @ApiProperty({ example: '#f5f7fa' }) @IsHexColor() light: string;
}

export class GradientDto {
  @ApiProperty({ example: '#0b1f3a' }) @IsHexColor() from: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: null }) @IsOptional() @IsHexColor() via?: string | null;
  @ApiProperty({ example: '#1d4ed8' }) @IsHexColor() to: string;
}

export class BackgroundDto {
  @ApiProperty({ type: ColorPairDto }) @IsObject() @ValidateNested() @Type(() => ColorPairDto) color: ColorPairDto;
  @ApiProperty({ type: GradientDto }) @IsObject() @ValidateNested() @Type(() => GradientDto) gradient: GradientDto;
  @ApiProperty({ description: IMAGE }) @IsImage(IMAGE_MAX_BYTES) image: string;
  @ApiProperty({ enum: BACKGROUND_POSITIONS }) @IsIn(BACKGROUND_POSITIONS) position: string;
  @ApiProperty({ enum: BACKGROUND_REPEATS }) @IsIn(BACKGROUND_REPEATS) repeat: string;
  @ApiProperty({ enum: BACKGROUND_SIZES }) @IsIn(BACKGROUND_SIZES) size: string;
}

export class BrandConfigurationDto {
  @ApiProperty({ example: 'Lion City Schools Portal' }) @IsString() @Length(1, 100) portal_name: string;
  @ApiProperty({ example: '#1d4ed8' }) @IsHexColor() primary_color: string;
  @ApiProperty({ example: '#f59e0b' }) @IsHexColor() secondary_color: string;
  @ApiProperty({ type: TypefacesDto }) @IsObject() @ValidateNested() @Type(() => TypefacesDto) typefaces: TypefacesDto;
  @ApiProperty({ type: FontStylesDto })
  @IsObject()
  @ValidateNested()
  @Type(() => FontStylesDto)
  font_styles: FontStylesDto;
  @ApiProperty({ enum: LAYOUTS }) @IsIn(LAYOUTS) layout: string;
  @ApiProperty({ type: LogoDto }) @IsObject() @ValidateNested() @Type(() => LogoDto) logo: LogoDto;
  @ApiProperty({ type: BackgroundDto })
  @IsObject()
  @ValidateNested()
  @Type(() => BackgroundDto)
  background: BackgroundDto;
}

/** POST /vanity-domains. Owner, tenants and status are assigned by the server. */
export class CreateVanityDomainDto {
  @ApiProperty({ example: 'portal.lioncity.edu.example', description: 'Fully-qualified domain name' })
  @IsString()
  @MaxLength(253)
  @IsFQDN(FQDN_OPTIONS, { message: 'must be a fully-qualified domain name' })
  domain: string;

  @ApiProperty({ type: BrandConfigurationDto })
  @IsObject()
  @ValidateNested()
  @Type(() => BrandConfigurationDto)
  brand_configuration: BrandConfigurationDto;
}

/** PATCH /vanity-domains/:domain: replaces the brand configuration whole. */
export class UpdateVanityDomainDto {
  @ApiProperty({ type: BrandConfigurationDto })
  @IsObject()
  @ValidateNested()
  @Type(() => BrandConfigurationDto)
  brand_configuration: BrandConfigurationDto;
}
