import Redis from 'ioredis';

/**
 * Reserves a send slot for a delivery of a throttled webhook (GCRA with reservations), atomically
 * in Redis so every dispatcher replica shares one pace. KEYS: the webhook's next free slot, its
 * reservations (delivery id → slot). ARGV: delivery id, interval (ms), how early a slot may be taken (ms).
 * Answers {1, wait}: go after `wait` ms (its reservation spent); {0, wait}: come back in `wait` ms,
 * when its reserved slot is due. A delivery reserves once: until its slot it is only told to wait.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[2])
local early = tonumber(ARGV[3])
local slot = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '-1')
if slot < 0 then
  slot = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
  local keep = slot + interval - now + 60000
  redis.call('SET', KEYS[1], slot + interval, 'PX', keep)
  redis.call('HSET', KEYS[2], ARGV[1], slot)
  if redis.call('PTTL', KEYS[2]) < keep then redis.call('PEXPIRE', KEYS[2], keep) end
end
local wait = slot - now
if wait <= early then
  redis.call('HDEL', KEYS[2], ARGV[1])
  return {1, math.max(wait, 0)}
end
return {0, wait}
`;

/** What the throttle says about one delivery now. */
export type ThrottleAnswer = { go: true; waitMs: number } | { go: false; waitMs: number };

/** A slot this close is waited for in the process; a later one by putting the job back. */
const WAIT_IN_PROCESS_MS = 50;

type ThrottleClient = Redis & {
  reserveSlot(
    tat: string,
    reservations: string,
    id: string,
    intervalMs: number,
    earlyMs: number,
  ): Promise<[number, number]>;
};

/**
 * Per-webhook delivery rate (`rate_limit`, deliveries per second) across dispatcher replicas:
 * each delivery of a throttled webhook gets its own slot, `1000 / rate` ms after the previous
 * one, and waits for it without spending an attempt (its job is put back until then). Slots are
 * handed out in Redis, so two replicas never use the same one.
 */
export class WebhookThrottle {
  private readonly redis: ThrottleClient;

  constructor(
    redisUrl: string,
    private readonly prefix: string,
  ) {
    // Fail fast while Redis is away: the delivery then waits like any of our own failures.
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) as ThrottleClient;
    this.redis.on('error', () => undefined);
    this.redis.defineCommand('reserveSlot', { numberOfKeys: 2, lua: RESERVE });
  }

  /** Whether the delivery may go now (after `waitMs`, at most a few ms), or must come back in `waitMs`. */
  async take(webhookId: string, deliveryId: string, perSecond: number): Promise<ThrottleAnswer> {
    const key = `${this.prefix}:throttle:${webhookId}`;
    const [go, waitMs] = await this.redis.reserveSlot(
      `${key}:next`,
      `${key}:reserved`,
      deliveryId,
      Math.max(1, Math.round(1000 / perSecond)),
      WAIT_IN_PROCESS_MS,
    );
    return go === 1 ? { go: true, waitMs } : { go: false, waitMs };
  }

  close(): void {
    this.redis.disconnect();
  }
}
