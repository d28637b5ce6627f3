import type { MessageBodyText } from '@edu/persistence';
import { MessageGoneError, MessageTailCache } from './message-tail-cache';

const body = (id: string, size = 10): MessageBodyText => ({
  id,
  recipient_json: `{"name":"Recipient ${id}"}`,
  alerts_json: JSON.stringify([{ id, text: 'é'.repeat(size) }]),
});
const decoded = (tail: { base64url: string }) => Buffer.from(tail.base64url, 'base64url').toString('utf8');

/** A message store standing in for PostgreSQL, counting what each read asked for. */
function store(messages: MessageBodyText[]) {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const reads: string[][] = [];
  return {
    reads,
    load: async (ids: string[]) => {
      reads.push([...ids]);
      return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as MessageBodyText] : []));
    },
  };
}

describe('MessageTailCache', () => {
  it("gives each message its own recipient and alerts, encoded with the payload's closing brace", async () => {
    const s = store([body('m-1'), body('m-2')]);
    const cache = new MessageTailCache(s.load, 1_000_000);
    const [a, b] = await Promise.all([cache.get('m-1'), cache.get('m-2')]);
    expect(decoded(a)).toBe(
      `"recipient":{"name":"Recipient m-1"},"alerts":[{"id":"m-1","text":"${'é'.repeat(10)}"}]}}`,
    );
    expect(decoded(b)).toContain('"alerts":[{"id":"m-2"');
    expect(decoded(b)).not.toContain('m-1');
  });

  it('reads a message once for concurrent deliveries and again never while it is held', async () => {
    const s = store([body('m-1'), body('m-2')]);
    const cache = new MessageTailCache(s.load, 1_000_000);
    const first = await Promise.all([cache.get('m-1'), cache.get('m-1'), cache.get('m-2'), cache.get('m-1')]);
    expect(s.reads.flat().sort()).toEqual(['m-1', 'm-2']);
    expect(await cache.get('m-1')).toBe(first[0]);
    expect(s.reads.flat()).toHaveLength(2);
  });

  it('holds at most its byte bound, dropping the least recently used message first', async () => {
    const s = store(['a', 'b', 'c'].map((id) => body(id, 100)));
    const tailBytes = (await new MessageTailCache(store([body('x', 100)]).load, 1_000_000).get('x')).base64url.length;
    const cache = new MessageTailCache(s.load, tailBytes * 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a'); // a is now more recently used than b
    await cache.get('c');
    expect(cache.bytes).toBeLessThanOrEqual(tailBytes * 2);
    s.reads.length = 0;
    await cache.get('a');
    await cache.get('c');
    expect(s.reads).toEqual([]);
    await cache.get('b');
    expect(s.reads.flat()).toEqual(['b']);
  });

  it('still serves a message larger than the bound, without keeping it', async () => {
    const s = store([body('big', 1_000)]);
    const cache = new MessageTailCache(s.load, 100);
    expect(decoded(await cache.get('big'))).toContain('"id":"big"');
    expect(cache.bytes).toBe(0);
    await cache.get('big');
    expect(s.reads.flat()).toEqual(['big', 'big']);
  });

  it('rejects for a message that is gone and caches nothing for it; a failed read is retried next time', async () => {
    const s = store([body('m-1')]);
    const cache = new MessageTailCache(s.load, 1_000_000);
    await expect(cache.get('deleted')).rejects.toBeInstanceOf(MessageGoneError);
    await expect(cache.get('deleted')).rejects.toBeInstanceOf(MessageGoneError);
    expect(s.reads.flat()).toEqual(['deleted', 'deleted']);
    let fail = true;
    const flaky = new MessageTailCache(async (ids) => {
      if (fail) throw new Error('connection terminated');
      return s.load(ids);
    }, 1_000_000);
    await expect(flaky.get('m-1')).rejects.toThrow('connection terminated');
    fail = false;
    expect(decoded(await flaky.get('m-1'))).toContain('"id":"m-1"');
  });
});

describe('MessageTailCache with withheld fields', () => {
  it("keeps a message's tail without an app's withheld fields apart from the whole one, read once each", async () => {
    const m: MessageBodyText = {
      id: 'm-1',
      recipient_json: '{"name":"Jane","primary_email":"jane@school.example","identifiers":{"sis_id":"1"}}',
      alerts_json: '[{"alerts":[{"entity":{"ext_id":"S-1","pronouns":["she/her"],"identifiers":{"sis_id":"2"}}}]}]',
    };
    const s = store([m]);
    const cache = new MessageTailCache(s.load, 1_000_000);
    const [trimmed, whole, again] = [
      await cache.get('m-1', ['contact', 'preferred_names']),
      await cache.get('m-1'),
      await cache.get('m-1', ['contact', 'preferred_names']),
    ];
    expect(decoded(trimmed)).toBe(
      `"recipient":{"name":"Jane","identifiers":{"sis_id":"1"}},"alerts":[{"alerts":[{"entity":{"ext_id":"S-1","identifiers":{"sis_id":"2"}}}]}]}}`,
    );
    expect(decoded(whole)).toBe(`"recipient":${m.recipient_json},"alerts":${m.alerts_json}}}`);
    expect(again).toBe(trimmed);
    expect(s.reads.flat()).toEqual(['m-1', 'm-1']);
  });
});
