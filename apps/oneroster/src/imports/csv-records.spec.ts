import { Readable } from 'node:stream';
import { csvBatches, CsvSyntaxError } from './csv-records';

const collect = async (text: string, size = 2) => {
  const records: string[][] = [];
  const lines: number[] = [];
  for await (const b of csvBatches(Readable.from([Buffer.from(text)]), size)) {
    records.push(...b.records);
    lines.push(...b.lines);
  }
  return { records, lines };
};

describe('csv records', () => {
  it('number records by the line they start on, across quoted line breaks and blank lines', async () => {
    const { records, lines } = await collect('a,b\n1,"two\nlines"\n\n3,"x,y"\r\n4,"say ""hi"""\n');
    expect(records).toEqual([
      ['a', 'b'],
      ['1', 'two\nlines'],
      ['3', 'x,y'],
      ['4', 'say "hi"'],
    ]);
    expect(lines).toEqual([1, 2, 5, 6]);
  });

  it('drop a UTF-8 BOM', async () => {
    expect((await collect('\ufeffsourcedId,name\nx,y\n')).records[0]).toEqual(['sourcedId', 'name']);
  });

  it('keep rows of uneven width for the caller to report', async () => {
    expect((await collect('a,b\n1,2,3\n4\n')).records).toEqual([['a', 'b'], ['1', '2', '3'], ['4']]);
  });

  it('name the line of a syntax error', async () => {
    await expect(collect('a,b\n1,2\n3,"open\n')).rejects.toBeInstanceOf(CsvSyntaxError);
    await expect(collect('a,b\n1,2\n3,x"y"z\n')).rejects.toMatchObject({ line: 3 });
  });
});
