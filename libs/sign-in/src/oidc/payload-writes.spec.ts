import { PayloadWriteBatch, writeAll, type PayloadWrite, type Sql } from './payload-writes';

const fakeDs = () => {
  const sent: string[] = [];
  const ds = { query: (sql: string) => (sent.push(sql.trim().split(/\s+/)[0]), Promise.resolve({ rows: [] })) };
  return { ds: ds as unknown as Sql, sent };
};
const upsert = (kind: string, id: string): PayloadWrite => ({
  op: 'upsert',
  kind,
  id,
  payload: {},
  grantId: undefined,
  userCode: undefined,
  uid: undefined,
  expiresAt: null,
});

describe('oidc payload writes', () => {
  it('sends writes to distinct rows in one statement', async () => {
    const { ds, sent } = fakeDs();
    await writeAll(ds, [
      { op: 'destroy', kind: 'Interaction', id: 'i' },
      upsert('AuthorizationCode', 'c'),
      upsert('Session', 's'),
    ]);
    expect(sent).toEqual(['WITH']);
  });

  it('sends a lone write, or writes to one row twice, one by one and in order', async () => {
    const { ds, sent } = fakeDs();
    await writeAll(ds, [upsert('Session', 's')]);
    await writeAll(ds, [upsert('Session', 's'), { op: 'destroy', kind: 'Session', id: 's' }]);
    expect(sent).toEqual(['INSERT', 'INSERT', 'DELETE']);
  });

  it('holds the writes of a request and sends them when its handling ends, also when it fails', async () => {
    const { ds, sent } = fakeDs();
    await PayloadWriteBatch.around(ds, async () => {
      PayloadWriteBatch.pending()?.push(upsert('Session', 's'), { op: 'consume', kind: 'AuthorizationCode', id: 'c' });
      expect(sent).toEqual([]);
    });
    expect(sent).toEqual(['WITH']);
    await expect(
      PayloadWriteBatch.around(ds, async () => {
        PayloadWriteBatch.pending()?.push(upsert('Session', 't'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(sent).toEqual(['WITH', 'INSERT']);
    expect(PayloadWriteBatch.pending()).toBeUndefined();
  });
});
