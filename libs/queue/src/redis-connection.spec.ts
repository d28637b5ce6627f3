import { RedisPing, redisOptionsFromUrl } from './redis-connection';

describe('redis connection', () => {
  it('parses redis URLs into BullMQ connection options', () => {
    expect(redisOptionsFromUrl('redis://:p%40ss@cache.internal:6380/2')).toMatchObject({
      host: 'cache.internal',
      port: 6380,
      password: 'p@ss',
      db: 2,
      maxRetriesPerRequest: null,
      tls: undefined,
    });
    expect(redisOptionsFromUrl('rediss://user:pw@cache.example')).toMatchObject({
      port: 6379,
      username: 'user',
      db: 0,
      tls: {},
    });
  });

  it('pings the real Redis server and fails fast on a dead one', async () => {
    const live = new RedisPing(process.env.REDIS_URL as string);
    await expect(live.ping()).resolves.toBeUndefined();
    await live.close();
    const dead = new RedisPing('redis://127.0.0.1:1');
    await expect(dead.ping()).rejects.toThrow();
    await dead.close();
  });
});
