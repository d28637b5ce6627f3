import { subjectFor } from './tenant-subject';

describe('the sub of a person at a tenant', () => {
  const person = '11111111-2222-4333-8444-555555555503';
  const lionCity = '9b8e7d6c-5a4f-4321-8fed-cba987654302';
  const harbour = '9b8e7d6c-5a4f-4321-8fed-cba987654301';

  it('is a stable version 5 uuid, different at each tenant and never the user id', () => {
    const atLionCity = subjectFor(lionCity, person);
    expect(atLionCity).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(subjectFor(lionCity.toUpperCase(), person.toUpperCase())).toBe(atLionCity);
    expect(subjectFor(harbour, person)).not.toBe(atLionCity);
    expect(atLionCity).not.toBe(person);
  });
});
