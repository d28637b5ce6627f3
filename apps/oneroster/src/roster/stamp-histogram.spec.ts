import { parseFilter } from '@edu/oneroster-query';
import { countFromHistogram, histogramCanAnswer, type StampBucket } from './stamp-histogram';

const us = (iso: string, extraMicros = 0) => Date.parse(iso) * 1000 + extraMicros;
const BUCKETS: StampBucket[] = [
  { status: 'active', micros: us('2024-01-01T00:00:00.000Z'), count: 1000 },
  { status: 'active', micros: us('2024-03-01T12:00:00.000Z', 500), count: 20 },
  { status: 'tobedeleted', micros: us('2024-03-01T12:00:00.000Z', 500), count: 3 },
];
const count = (filter: string) => countFromHistogram(parseFilter(filter, 'user'), BUCKETS);

describe('stamp histogram totals', () => {
  it('answers filters made only of status and dateLastModified', () => {
    expect(histogramCanAnswer(parseFilter("dateLastModified>'2024-01-01'", 'user'))).toBe(true);
    expect(histogramCanAnswer(parseFilter("status='active' AND dateLastModified>'2024-01-01'", 'user'))).toBe(true);
    expect(histogramCanAnswer(parseFilter("status='active' OR familyName='x'", 'user'))).toBe(false);
    expect(histogramCanAnswer(parseFilter("metadata.status='x'", 'user'))).toBe(false);
  });

  it('counts like the database, at microsecond precision', () => {
    expect(count("dateLastModified>'2024-01-01'")).toBe(23);
    expect(count("dateLastModified>='2024-01-01T00:00:00Z'")).toBe(1023);
    // 12:00:00.000500 is after 12:00:00.000 although both print as ...12:00:00.000Z.
    expect(count("dateLastModified>'2024-03-01T12:00:00.000Z'")).toBe(23);
    expect(count("dateLastModified='2024-03-01T12:00:00.000Z'")).toBe(0);
    expect(count("dateLastModified<'2024-03-01T12:00:00.001Z'")).toBe(1023);
    expect(count("dateLastModified!='2024-01-01'")).toBe(23);
  });

  it('combines status and dates with AND / OR', () => {
    expect(count("status='active'")).toBe(1020);
    expect(count("status='inactive'")).toBe(3);
    expect(count("status!='active'")).toBe(3);
    expect(count("status='active' AND dateLastModified>'2024-02-01'")).toBe(20);
    expect(count("status='tobedeleted' OR dateLastModified<'2024-02-01'")).toBe(1003);
  });

  it('counts like the database for status values outside the enumeration, ordering and ~', () => {
    expect(histogramCanAnswer(parseFilter("status='norecords'", 'user'))).toBe(true);
    expect(count("status='norecords'")).toBe(0);
    expect(count("status='NoRecords' OR dateLastModified>'2024-02-01'")).toBe(23);
    expect(count("status!='norecords'")).toBe(1023);
    expect(count("status!='' AND dateLastModified<'2024-02-01'")).toBe(1000);
    expect(count("status>'b'")).toBe(3);
    expect(count("status<='ACTIVE'")).toBe(1020);
    expect(count("status~'DEL'")).toBe(3);
    expect(count("status~''")).toBe(1023);
  });
});
