import { rolesWriter } from './roles-writer';

describe('rolesWriter', () => {
  const org = (id: string) => `{"href":"https://h/orgs/${id}","sourcedId":"${id}","type":"org"}`;

  it('writes the stored role list with a GUIDRef per org, in the model key order, optional fields only when present', () => {
    const write = rolesWriter(org);
    const stored =
      '[{"org": "s1", "role": "teacher", "roleType": "primary"}, {"org": "d1", "role": "ext:coach", "endDate": "2026-06-30", "roleType": "secondary", "beginDate": "2025-08-01", "userProfile": ""}]';
    expect(write(stored)).toBe(
      `[{"roleType":"primary","role":"teacher","org":${org('s1')}},` +
        `{"roleType":"secondary","role":"ext:coach","org":${org('d1')},"beginDate":"2025-08-01","endDate":"2026-06-30"}]`,
    );
    expect(JSON.parse(write(stored))).toHaveLength(2);
  });

  it('writes each distinct stored text once (users of a school share a few role lists)', () => {
    let refs = 0;
    const write = rolesWriter((id) => {
      refs++;
      return org(id);
    });
    const stored = '[{"org": "s1", "role": "student", "roleType": "primary"}]';
    const first = write(stored);
    for (let i = 0; i < 100; i++) expect(write(stored)).toBe(first);
    expect(refs).toBe(1);
    write('[{"org": "s2", "role": "student", "roleType": "primary"}]');
    expect(refs).toBe(2);
  });

  it('stays bounded: past 10,000 distinct lists it starts over, still writing each list right', () => {
    let refs = 0;
    const write = rolesWriter((id) => {
      refs++;
      return org(id);
    });
    const stored = (i: number) => `[{"org": "s${i}", "role": "student", "roleType": "primary"}]`;
    for (let i = 0; i < 10_000; i++) write(stored(i));
    write(stored(0));
    expect(refs).toBe(10_000);
    write(stored(10_000));
    expect(write(stored(0))).toBe(`[{"roleType":"primary","role":"student","org":${org('s0')}}]`);
    expect(refs).toBe(10_002);
  });
});
