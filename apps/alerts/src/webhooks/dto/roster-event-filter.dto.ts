import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, type ValidationArguments } from 'class-validator';
import { FEED_OBJECTS } from '@edu/sharing';

/** The roster change feed's collections (`users`, `classes`, ...). */
export const ROSTER_EVENT_OBJECTS: readonly string[] = FEED_OBJECTS.map((o) => o.object);
/** What happened to an object: the suffix of an event's `type`. */
export const ROSTER_EVENT_TYPES = ['created', 'updated', 'deleted'] as const;

/** Names the values of a list that are not allowed, and what is. */
const unknownOf =
  (allowed: readonly string[]) =>
  (args: ValidationArguments): string => {
    const given: unknown[] = Array.isArray(args.value) ? args.value : [args.value];
    const unknown = given.filter((v) => !allowed.includes(v as string)).map((v) => JSON.stringify(v));
    return `${args.property}: unknown ${unknown.join(', ')}; each one of ${allowed.join(', ')}`;
  };

/** Which roster events a `roster-events` webhook receives; a list left out means all of them. */
export class RosterEventFilterDto {
  @ApiPropertyOptional({ type: [String], enum: ROSTER_EVENT_OBJECTS, description: 'Feed collections to receive' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ROSTER_EVENT_OBJECTS.length)
  @IsIn(ROSTER_EVENT_OBJECTS, { each: true, message: unknownOf(ROSTER_EVENT_OBJECTS) })
  objects?: string[];

  @ApiPropertyOptional({ type: [String], enum: ROSTER_EVENT_TYPES, description: 'Kinds of change to receive' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(ROSTER_EVENT_TYPES.length)
  @IsIn(ROSTER_EVENT_TYPES, { each: true, message: unknownOf(ROSTER_EVENT_TYPES) })
  types?: string[];
}
