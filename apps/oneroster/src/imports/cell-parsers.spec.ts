import { ROLE_TYPES } from '@edu/oneroster-query';
import {
  CellError,
  enumLookup,
  readBoolean,
  readDate,
  readDateTime,
  readEnum,
  readEnumList,
  readGrades,
  readList,
  readNumber,
  readObjectiveSource,
  readRefs,
  readScaleValues,
  readSourcedId,
  readStatus,
  readText,
  readUserIds,
  readYear,
} from './cell-parsers';

const err = (v: unknown) => (v instanceof CellError ? v.message : undefined);

describe('cell parsers', () => {
  it('trim text; empty is absent; NUL refused', () => {
    expect(readText('  Hill School ')).toBe('Hill School');
    expect(readText('   ')).toBeNull();
    expect(readText(undefined)).toBeNull();
    expect(err(readText('a\u0000b'))).toMatch(/NUL/);
  });

  it('accept opaque sourcedIds on one line, up to 256 characters', () => {
    expect(readSourcedId('usr-1/ä')).toBe('usr-1/ä');
    expect(err(readSourcedId('a\nb'))).toMatch(/control/);
    expect(err(readSourcedId('x'.repeat(257)))).toMatch(/256/);
  });

  it('read statuses case-insensitively, v1.0 inactive as tobedeleted', () => {
    expect(readStatus('Active')).toBe('active');
    expect(readStatus('TOBEDELETED')).toBe('tobedeleted');
    expect(readStatus('inactive')).toBe('tobedeleted');
    expect(err(readStatus('gone'))).toMatch(/'gone' is not a status/);
  });

  it('read enumerations case-insensitively in canonical case', () => {
    const lookup = enumLookup(ROLE_TYPES);
    expect(readEnum('TEACHER', ROLE_TYPES, lookup)).toBe('teacher');
    expect(err(readEnum('wizard', ROLE_TYPES, lookup))).toBe(`'wizard' is not one of ${ROLE_TYPES.join(', ')}`);
    expect(readEnum('gradingperiod', ['gradingPeriod'], enumLookup(['gradingPeriod']))).toBe('gradingPeriod');
  });

  it('read booleans true/false in any case only', () => {
    expect(readBoolean('TRUE')).toBe(true);
    expect(readBoolean('False')).toBe(false);
    expect(err(readBoolean('1'))).toMatch(/not a boolean/);
  });

  it('read real calendar dates and ISO datetimes', () => {
    expect(readDate('2024-02-29')).toBe('2024-02-29');
    expect(err(readDate('2023-02-29'))).toMatch(/not a date/);
    expect(err(readDate('29/02/2024'))).toMatch(/YYYY-MM-DD/);
    expect(readDateTime('2024-08-20T14:03:11.000Z')).toBe('2024-08-20T14:03:11.000Z');
    expect(readDateTime('2024-08-20T16:03:11+02:00')).toBe('2024-08-20T14:03:11.000Z');
    expect(readDateTime('2024-08-20')).toBe('2024-08-20T00:00:00.000Z');
    expect(err(readDateTime('20 Aug 2024'))).toMatch(/ISO 8601/);
    expect(readYear('2025')).toBe('2025');
    expect(err(readYear('25'))).toMatch(/four-digit/);
  });

  it('split lists on commas, trimming and dropping blanks', () => {
    expect(readList('09')).toEqual(['09']);
    expect(readList(' t-1 , t-2,, ')).toEqual(['t-1', 't-2']);
    expect(readRefs('a,b')).toEqual(['a', 'b']);
    expect(err(readRefs(`a,${'x'.repeat(300)}`))).toMatch(/longer than 256/);
  });

  it('read CEDS grades, padding single digits', () => {
    expect(readGrades('kg,1,09,other')).toEqual(['KG', '01', '09', 'Other']);
    expect(err(readGrades('09,Year 10'))).toMatch(/'Year 10' is not a CEDS grade/);
  });

  it('read {type:identifier} user ids', () => {
    expect(readUserIds('{LDAP:jdoe},{SIS:100234}')).toEqual([
      { type: 'LDAP', identifier: 'jdoe' },
      { type: 'SIS', identifier: '100234' },
    ]);
    expect(readUserIds('{ Fed : urn:x:1 }')).toEqual([{ type: 'Fed', identifier: 'urn:x:1' }]);
    expect(err(readUserIds('LDAP:jdoe'))).toMatch(/\{type:identifier\}/);
    expect(err(readUserIds('{LDAP:}'))).toMatch(/both a type and an identifier/);
    expect(err(readUserIds('{A:1}{B:2}'))).toMatch(/\{type:identifier\}/);
  });
});

describe('gradebook and resources cells', () => {
  it('reads numbers exactly and refuses anything else', () => {
    expect(readNumber('87.5')).toBe(87.5);
    expect(readNumber('-2')).toBe(-2);
    expect(readNumber('1e3')).toBe(1000);
    expect(readNumber('0.1')).toBe(0.1);
    for (const bad of ['8,5', 'abc', 'NaN', '1e999', '--1']) expect(err(readNumber(bad))).toMatch(/not a number/);
  });

  it('reads lists of enumeration values in canonical case', () => {
    const lookup = enumLookup(ROLE_TYPES);
    expect(readEnumList('Student,teacher', ROLE_TYPES, lookup)).toEqual(['student', 'teacher']);
    expect(err(readEnumList('student,wizard', ROLE_TYPES, lookup))).toMatch(/'wizard' is not one of/);
  });

  it('refuses datetimes outside four-digit years', () => {
    expect(readDateTime('2024-03-01T08:00:00Z')).toBe('2024-03-01T08:00:00.000Z');
    expect(err(readDateTime('0000-01-01T00:00:00+01:00'))).toMatch(/not an ISO 8601 datetime/);
  });
});

describe('v1.2 cells', () => {
  it('take ext:<name> values in extensible enumerations only, as given', () => {
    const lookup = enumLookup(ROLE_TYPES);
    expect(readEnum('ext:Tutor.1', ROLE_TYPES, lookup, true)).toBe('ext:Tutor.1');
    expect(readEnum('Teacher', ROLE_TYPES, lookup, true)).toBe('teacher');
    expect(err(readEnum('ext:Tutor', ROLE_TYPES, lookup))).toBe(
      "'ext:Tutor' is not one of administrator, aide, guardian, parent, proctor, relative, student, teacher",
    );
    for (const bad of ['ext:', 'ext:a b', 'EXT:a', 'x-ext:a', 'ext:a/b'])
      expect(err(readEnum(bad, ROLE_TYPES, lookup, true))).toMatch(/or an ext:<name> value$/);
    expect(readEnumList('student,ext:tutor', ROLE_TYPES, lookup, true)).toEqual(['student', 'ext:tutor']);
  });

  it('read score scale values as {lhs:rhs} items, the left side up to the first colon', () => {
    expect(readScaleValues('{A:90 - 100}, {B:80 - 89}')).toEqual([
      { itemValueLHS: 'A', itemValueRHS: '90 - 100' },
      { itemValueLHS: 'B', itemValueRHS: '80 - 89' },
    ]);
    expect(readScaleValues('{4:Exceeds: all criteria}')).toEqual([
      { itemValueLHS: '4', itemValueRHS: 'Exceeds: all criteria' },
    ]);
    for (const bad of ['A:90', 'A=90,B=80', '{A:90}{B:80}', '{A:90},B:80', '{A}'])
      expect(err(readScaleValues(bad))).toMatch(/is not a list of \{lhs:rhs\} items/);
    expect(err(readScaleValues('{ :90}'))).toMatch(/needs both a left-hand and a right-hand value/);
  });

  it('read learning objective sources as the API stores them: case, unknown, /name', () => {
    expect([
      readObjectiveSource('CASE'),
      readObjectiveSource('/unknown'),
      readObjectiveSource('state'),
      readObjectiveSource('/ngss2'),
    ]).toEqual(['case', 'unknown', '/state', '/ngss2']);
    for (const bad of ['State', '/a b', '//x', 'a-b'])
      expect(err(readObjectiveSource(bad))).toMatch(/not a learning objective source/);
  });
});
