import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsArray, IsString, ValidateNested } from 'class-validator';
import { dtoProblems } from '@edu/http';
import { EachObject, IsHttpUrlList, PresentOnlyWhen } from './validators';

class Inner {
  @IsArray() @IsHttpUrlList() urls: string[];
}

class Outer {
  @IsString() kind: string;
  @PresentOnlyWhen('kind', 'web', { object: true }) @ValidateNested() @Type(() => Inner) web?: Inner;
  @IsArray() @EachObject() @ValidateNested({ each: true }) @Type(() => Inner) list: Inner[];
}

describe('DTO problems', () => {
  it('names fields with dots (like the global pipe) or brackets (CLI), moving list indexes into the field', async () => {
    const body = { kind: 'web', web: { urls: ['https://ok.example', 'nope'] }, list: [{ urls: [] }, { urls: ['x'] }] };
    const dot = await dtoProblems(Outer, body);
    expect(dot.problems).toEqual([
      { field: 'web.urls', problems: ['[1] must be an http(s) URL'] },
      { field: 'list.1.urls', problems: ['[0] must be an http(s) URL'] },
    ]);
    const bracket = await dtoProblems(Outer, body, 'apps[3]', 'bracket');
    expect(bracket.problems).toEqual([
      { field: 'apps[3].web.urls[1]', problems: ['must be an http(s) URL'] },
      { field: 'apps[3].list[1].urls[0]', problems: ['must be an http(s) URL'] },
    ]);
  });

  it('refuses unknown properties, a discriminated object in the wrong case, and non-object list items', async () => {
    const res = await dtoProblems(Outer, { kind: 'app', web: { urls: [] }, list: [[], null], extra: 1 });
    const fields = res.problems.map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(['extra', 'web', 'list']));
    expect(res.problems.find((p) => p.field === 'web')?.problems).toContain('is only allowed when kind is web');
    const missing = await dtoProblems(Outer, { kind: 'web', list: [] });
    expect(missing.problems).toEqual([{ field: 'web', problems: ['is required when kind is web'] }]);
    const notObject = await dtoProblems(Outer, { kind: 'web', web: ['x'], list: [] });
    expect(notObject.problems[0]).toMatchObject({
      field: 'web',
      problems: expect.arrayContaining(['must be an object']),
    });
  });

  it('a record that is not an object is one problem', async () => {
    expect((await dtoProblems(Outer, 'x', 'apps[0]', 'bracket')).problems).toEqual([
      { field: 'apps[0]', problems: ['must be an object'] },
    ]);
  });
});
