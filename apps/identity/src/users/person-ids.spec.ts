import { PersonIds } from './person-ids';

describe('PersonIds', () => {
  const secret = 'a-key-encryption-key-of-at-least-32-characters';

  it('gives an address the same version 4 shaped uuid every time', () => {
    const ids = PersonIds.fromSecret(secret);
    const id = ids.forEmail('jo@school.example');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(PersonIds.fromSecret(secret).forEmail('jo@school.example')).toBe(id);
  });

  it('depends on the address and on the secret', () => {
    const ids = PersonIds.fromSecret(secret);
    expect(ids.forEmail('jo@school.example')).not.toBe(ids.forEmail('jo2@school.example'));
    expect(PersonIds.fromSecret(`${secret}!`).forEmail('jo@school.example')).not.toBe(
      ids.forEmail('jo@school.example'),
    );
  });
});
