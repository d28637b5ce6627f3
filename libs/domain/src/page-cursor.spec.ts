import { ApiError } from './errors';
import { decodePageCursor, encodePageCursor } from './page-cursor';

describe('page cursors', () => {
  const position = { at: '2026-11-25T19:45:59.123456+00:00', id: '0b5e1a2c-1111-4222-8333-444455556666' };

  it('give back the position they were made from', () => {
    expect(decodePageCursor(encodePageCursor(position))).toEqual(position);
  });

  it.each([
    ['not base64 of a position', 'garbage'],
    ['an id that is not a uuid', Buffer.from('2026-11-25T19:45:59Z|42').toString('base64url')],
    ['a time that is not one', Buffer.from(`soon|${position.id}`).toString('base64url')],
    ['a third part', Buffer.from(`${position.at}|${position.id}|x`).toString('base64url')],
  ])('refuse %s with a 400 naming the cursor', (_name, raw) => {
    const err = (() => {
      try {
        decodePageCursor(raw);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('cursor: not a cursor this API issued');
  });
});
