import { IdScanner } from './id-scanner';

function scan(text: string, chunk = 3): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const s = new IdScanner((id, status) => out.push([id, status]));
  for (let i = 0; i < text.length; i += chunk) s.push(text.slice(i, i + chunk));
  s.end();
  return out;
}

describe('IdScanner', () => {
  it('reads sourcedId and status wherever they are, across chunks', () => {
    const text = 'name,status,sourcedId\r\n"a, b",active,u1\r\n"say ""hi""\nthere",tobedeleted,"u,2"\n,,\nx,,u3';
    expect(scan(text)).toEqual([
      ['u1', 'active'],
      ['u,2', 'tobedeleted'],
      ['u3', ''],
    ]);
    expect(scan(text, 1000)).toEqual(scan(text, 1));
  });

  it('skips a byte order mark and reads nothing without a sourcedId column', () => {
    expect(scan('\uFEFFsourcedId,status\nu1,active\n')).toEqual([['u1', 'active']]);
    expect(scan('id,status\nu1,active\n')).toEqual([]);
  });
});
