import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

type CursorPageQueryClass = new () => { limit?: number; cursor?: string };

/**
 * The query of a cursor-paged list (`limit` 1-100, default 20; `cursor` from the previous page),
 * as a base class for the list's own query DTO. `cursorDescription` says where the previous page
 * hands out the cursor (a body field or the `Link` header).
 */
export function CursorPageQuery(cursorDescription: string): CursorPageQueryClass {
  class PageQuery {
    @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(1)
    @Max(100)
    limit?: number;

    @ApiPropertyOptional({ description: cursorDescription })
    @IsOptional()
    @IsString()
    @MaxLength(200)
    cursor?: string;
  }
  return PageQuery;
}
