import { identifierIdFor } from './upstream-identifier';

describe('identifier ids of upstream subjects', () => {
  it('keeps a uuid subject (lower-case) and derives a stable version 5 uuid from any other', () => {
    expect(identifierIdFor('0B5E1A2C-1111-4222-8333-444455556666')).toBe('0b5e1a2c-1111-4222-8333-444455556666');
    const derived = identifierIdFor('108234567890123456789');
    expect(derived).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(identifierIdFor('108234567890123456789')).toBe(derived);
    expect(identifierIdFor('108234567890123456788')).not.toBe(derived);
  });
});
