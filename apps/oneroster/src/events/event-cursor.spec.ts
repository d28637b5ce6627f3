import { ApiError, ApiErrorCode } from '@edu/domain';
import { BEGINNING, FeedCursors } from './event-cursor';

const owner = { tenantId: 't-1', deploymentId: 'd-1' };
const secret = 'a-cursor-secret-of-this-unit-test-32+chars';

function codeOf(fn: () => unknown): ApiErrorCode | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return undefined;
}

describe('FeedCursors', () => {
  it('reads back the position it issued for the same owner', () => {
    const cursors = new FeedCursors(secret);
    const cursor = cursors.issue(owner, { b: '12', n: '3456' });
    expect(cursors.read(owner, cursor)).toEqual({ b: '12', n: '3456' });
  });

  it("refuses another tenant's or deployment's cursor, a forged signature and another secret's cursor", () => {
    const cursors = new FeedCursors(secret);
    const cursor = cursors.issue(owner, BEGINNING);
    expect(codeOf(() => cursors.read({ ...owner, tenantId: 't-2' }, cursor))).toBe(ApiErrorCode.ValidationFailed);
    expect(codeOf(() => cursors.read({ ...owner, deploymentId: null }, cursor))).toBe(ApiErrorCode.ValidationFailed);
    const [payload] = cursor.split('.');
    expect(codeOf(() => cursors.read(owner, `${payload}.${'A'.repeat(32)}`))).toBe(ApiErrorCode.ValidationFailed);
    const other = new FeedCursors(`${secret}-rotated`);
    expect(codeOf(() => other.read(owner, cursor))).toBe(ApiErrorCode.ValidationFailed);
  });

  it('refuses malformed cursors with a 400, never a crash', () => {
    const cursors = new FeedCursors(secret);
    for (const bad of ['', '.', 'abc', 'a.b.c', '%%%.%%%', `${'x'.repeat(5000)}.y`])
      expect(codeOf(() => cursors.read(owner, bad))).toBe(ApiErrorCode.ValidationFailed);
  });

  it('answers 503 when no secret is configured (production without ROSTER_EVENTS_CURSOR_SECRET)', () => {
    const cursors = new FeedCursors(undefined);
    expect(codeOf(() => cursors.issue(owner, BEGINNING))).toBe(ApiErrorCode.ServiceUnavailable);
    expect(codeOf(() => cursors.read(owner, 'abc.def'))).toBe(ApiErrorCode.ServiceUnavailable);
  });
});
