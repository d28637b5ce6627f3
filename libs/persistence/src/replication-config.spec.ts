import { replicationConfigFromEnv, ReplicationConfigError, subscriptionNameFor } from './replication';

describe('replication configuration from the environment', () => {
  const URL = 'postgres://edu_replicator:secret@global-db.internal:5432/edu';

  it('means no replication when REPLICATION_ROLE is unset or "none" (a unified stack)', () => {
    expect(replicationConfigFromEnv({})).toEqual({ role: 'none' });
    expect(replicationConfigFromEnv({ REPLICATION_ROLE: 'none', SERVICE_REGION: 'AU-NSW' })).toEqual({ role: 'none' });
  });

  it('reads a publisher, which needs nothing else', () => {
    expect(replicationConfigFromEnv({ REPLICATION_ROLE: 'publisher' })).toEqual({ role: 'publisher' });
  });

  it('reads a subscriber, naming the subscription after SERVICE_REGION unless REPLICATION_SUBSCRIPTION says otherwise', () => {
    expect(
      replicationConfigFromEnv({
        REPLICATION_ROLE: 'subscriber',
        REPLICATION_SOURCE_URL: URL,
        SERVICE_REGION: 'AU-NSW',
      }),
    ).toEqual({
      role: 'subscriber',
      sourceUrl: URL,
      subscription: 'edu_identity_au_nsw',
    });
    expect(
      replicationConfigFromEnv({
        REPLICATION_ROLE: 'subscriber',
        REPLICATION_SOURCE_URL: URL,
        SERVICE_REGION: 'SG',
        REPLICATION_SUBSCRIPTION: 'sg_primary',
      }),
    ).toMatchObject({ subscription: 'sg_primary' });
    expect(subscriptionNameFor('us-east-1')).toBe('edu_identity_us_east_1');
  });

  it.each([
    [{ REPLICATION_ROLE: 'subscriber', SERVICE_REGION: 'SG' }, /REPLICATION_SOURCE_URL is required/],
    [
      { REPLICATION_ROLE: 'subscriber', REPLICATION_SOURCE_URL: 'global-db:5432' },
      /must be a postgres:\/\/ URL.*REPLICATION_SUBSCRIPTION \(or SERVICE_REGION/,
    ],
    [
      { REPLICATION_ROLE: 'subscriber', REPLICATION_SOURCE_URL: URL, REPLICATION_SUBSCRIPTION: 'Bad-Name; DROP' },
      /REPLICATION_SUBSCRIPTION "Bad-Name; DROP" must match/,
    ],
    [{ REPLICATION_ROLE: 'publisher', REPLICATION_SOURCE_URL: URL }, /the publisher needs none/],
    [{ REPLICATION_SOURCE_URL: URL }, /REPLICATION_ROLE is not "subscriber"/],
    [{ REPLICATION_ROLE: 'primary' }, /must be "publisher", "subscriber" or unset, not "primary"/],
  ])('refuses %j naming every problem', (env, message) => {
    expect(() => replicationConfigFromEnv(env)).toThrow(ReplicationConfigError);
    expect(() => replicationConfigFromEnv(env)).toThrow(message);
  });
});
