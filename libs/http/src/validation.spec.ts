import { Type } from 'class-transformer';
import { IsArray, IsString, ValidateNested } from 'class-validator';
import { ApiError } from '@edu/domain';
import { BracketFieldPaths, createValidationPipe, MAX_REPORTED_FIELDS, validateBody } from './validation';

class Item {
  @IsString() name: string;
}
class Batch {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
}
@BracketFieldPaths()
class BulkBatch {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
}

async function refusal(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a validation failure');
}

describe('validation failures', () => {
  const bad = { items: Array.from({ length: 1_000 }, () => ({ name: 7 })) };

  it(`list at most ${MAX_REPORTED_FIELDS} fields and count the rest (a bounded answer for a body of thousands of bad items)`, async () => {
    for (const err of [
      await refusal(() => validateBody(Batch, bad)),
      await refusal(() => createValidationPipe().transform(bad, { type: 'body', metatype: Batch })),
    ]) {
      expect(err.code).toBe('validation_failed');
      const fields = err.details?.fields as { field: string }[];
      expect(fields).toHaveLength(MAX_REPORTED_FIELDS);
      expect(fields[0].field).toMatch(/^items(\.0|\[0\])\.name$/);
      expect(err.message).toMatch(/ \| and 900 more fields$/);
      expect(err.message.split(' | ')).toHaveLength(MAX_REPORTED_FIELDS + 1);
    }
  });

  it('lists every field when there are few', async () => {
    const err = await refusal(() => validateBody(Batch, { items: [{ name: 1 }, { name: 'ok' }, {}] }));
    expect((err.details?.fields as { field: string }[]).map((f) => f.field)).toEqual([
      'items[0].name',
      'items[2].name',
    ]);
    expect(err.message).not.toContain('more fields');
  });

  it('names fields in bracket style at the global pipe for a body DTO marked @BracketFieldPaths(), dot style otherwise', async () => {
    const body = { items: [{ name: 'ok' }, { name: 2 }] };
    const pipe = createValidationPipe();
    const fieldsOf = async (metatype: new () => object) =>
      (
        (await refusal(() => pipe.transform(body, { type: 'body', metatype }))).details?.fields as { field: string }[]
      ).map((f) => f.field);
    expect(await fieldsOf(BulkBatch)).toEqual(['items[1].name']);
    expect(await fieldsOf(Batch)).toEqual(['items.1.name']);
    const ok = await pipe.transform({ items: [{ name: 'a' }] }, { type: 'body', metatype: BulkBatch });
    expect(ok).toBeInstanceOf(BulkBatch);
  });
});
