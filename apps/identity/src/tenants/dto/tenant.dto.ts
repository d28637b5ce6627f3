import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { LICENCES, type Licence } from '@edu/domain';
import { IsUniqueList, Optional } from '../../common/validation/validators';

/** POST /tenants (platform.admin). Id, status and environment are assigned by the server. */
export class CreateTenantDto {
  @ApiProperty({ example: 'Harbour View Public School' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ example: 100234 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  customer_id: number;

  @ApiProperty({ example: 'NSW-4521', description: 'Government identifier of the school' })
  @IsString()
  @Length(1, 64)
  govt_id: string;

  @ApiProperty({ example: 'AU-NSW', description: 'Region id (see the region object of the read shape)' })
  @IsString()
  @Length(1, 64)
  region: string;

  @ApiProperty({ enum: LICENCES, isArray: true })
  @IsArray()
  @ArrayMaxSize(LICENCES.length)
  @IsIn(LICENCES, { each: true })
  @IsUniqueList()
  licences: Licence[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'sourcedId of the tenant\u2019s root OneRoster org',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  root_org_sourced_id?: string | null;
}

export class UpdateTenantDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional() @Optional() @IsInt() @Min(1) @Max(2_147_483_647) customer_id?: number;
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 64) govt_id?: string;
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 64) region?: string;

  @ApiPropertyOptional({ enum: LICENCES, isArray: true })
  @Optional()
  @IsArray()
  @ArrayMaxSize(LICENCES.length)
  @IsIn(LICENCES, { each: true })
  @IsUniqueList()
  licences?: Licence[];

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  root_org_sourced_id?: string | null;
}
