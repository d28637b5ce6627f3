import { cronProblem, repeatOptionsOf } from './schedule';

describe('sync schedules', () => {
  it('accepts five-field cron expressions in known time zones', () => {
    expect(cronProblem('0 2 * * *')).toBeUndefined();
    expect(cronProblem('*/15 6-18 * * 1-5', 'Australia/Sydney')).toBeUndefined();
  });

  it('names what is wrong with a bad one', () => {
    expect(cronProblem('0 2 * *')).toMatch(/five fields/);
    expect(cronProblem('* * * * * *')).toMatch(/five fields/);
    expect(cronProblem('61 2 * * *')).toMatch(/not a valid cron expression/);
    expect(cronProblem('0 2 * * mon-xyz')).toMatch(/not a valid cron expression/);
    expect(cronProblem('0 2 * * *', 'Mars/Olympus')).toMatch(/not a known time zone/);
  });

  it('maps to BullMQ repeat options (UTC unless a zone is given)', () => {
    expect(repeatOptionsOf({ interval_minutes: 15 })).toEqual({ every: 900_000 });
    expect(repeatOptionsOf({ cron: ' 0 2 * * * ' })).toEqual({ pattern: '0 2 * * *', tz: 'UTC' });
    expect(repeatOptionsOf({ cron: '0 2 * * *', timezone: 'Asia/Singapore' })).toEqual({
      pattern: '0 2 * * *',
      tz: 'Asia/Singapore',
    });
  });
});
