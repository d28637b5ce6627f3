import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Length, MaxLength } from 'class-validator';
import { Optional } from '../../common/validation/validators';

/** POST /developers (platform.admin). The id is assigned by the server. */
export class CreateDeveloperDto {
  @ApiProperty({ example: 'Brightpath Learning' }) @IsString() @Length(1, 200) name: string;
  @ApiProperty({
    example: 'partners@brightpath.example',
    description: 'Unique across developers (case-insensitive, stored lower-case)',
  })
  @IsEmail()
  @MaxLength(254)
  email: string;
}

/** PATCH /developers/:id (platform.admin). */
export class UpdateDeveloperDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional() @Optional() @IsEmail() @MaxLength(254) email?: string;
}
