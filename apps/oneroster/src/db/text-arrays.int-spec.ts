import { types } from 'pg';
import { useTestDatabaseClient } from '@edu/testing';
import { parseTextArray } from './text-arrays';

/** Elements PostgreSQL must quote (or not) in a text[]'s text form, and plain ids. */
const PIECES = ['', 'NULL', 'null', 'a,b', '{', '}', '"', '\\', ' ', '\t', '\n', 'é', '漢', '😀', 'org-1', 'x'];

/** A deterministic list of arrays: every piece alone and paired, then seeded random mixes with nulls. */
function arrays(): (string | null)[][] {
  const out: (string | null)[][] = [[], [null], ...PIECES.map((p) => [p]), ...PIECES.map((p) => [p, p + 'z'])];
  let seed = 20261128;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  for (let i = 0; i < 400; i++) {
    const length = next(6);
    const a: (string | null)[] = [];
    for (let k = 0; k < length; k++) {
      if (next(8) === 0) a.push(null);
      else a.push(Array.from({ length: 1 + next(3) }, () => PIECES[next(PIECES.length)]).join(''));
    }
    out.push(a);
  }
  return out;
}

describe('parseTextArray against PostgreSQL’s own text[] output', () => {
  const { client } = useTestDatabaseClient();

  it('gives back every array as sent, as pg’s own parser does, quoted elements included', async () => {
    const sent = arrays();
    const { rows } = await client().query<{ printed: string }>(
      'SELECT a.printed FROM unnest($1::text[]) WITH ORDINALITY AS j(doc, i) CROSS JOIN LATERAL (SELECT (SELECT array_agg(e ORDER BY k) FROM jsonb_array_elements_text(j.doc::jsonb) WITH ORDINALITY AS x(e, k))::text AS printed) AS a ORDER BY j.i',
      [sent.map((a) => JSON.stringify(a))],
    );
    const printed = rows.map((r) => r.printed ?? '{}');
    const generic = types.getTypeParser(1009 as Parameters<typeof types.getTypeParser>[0], 'text');
    expect(printed.map(parseTextArray)).toEqual(sent);
    expect(printed.map(parseTextArray)).toEqual(printed.map((p) => generic(p)));
    // Both paths ran: plain arrays (no quote or backslash) and quoted ones.
    expect(printed.some((p) => !/["\\]/.test(p) && p.length > 2)).toBe(true);
    expect(printed.some((p) => p.includes('"'))).toBe(true);
  });
});
