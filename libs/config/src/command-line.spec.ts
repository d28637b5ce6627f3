import { parseCommandLine } from './command-line';

describe('parseCommandLine', () => {
  const options = { since: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } as const;

  it('reads options and positionals as parseArgs does', () => {
    const r = parseCommandLine({ args: ['--since', '1h', 'file.json'], options, allowPositionals: true });
    expect(r).toEqual({ values: { since: '1h', 'dry-run': false }, positionals: ['file.json'] });
  });

  it.each([
    [['--all'], "Unknown option '--all'"],
    [['--since'], "Option '--since <value>' argument missing"],
    [['--since', '--dry-run'], "Option '--since' argument is ambiguous"],
    [['--dry-run=yes'], "Option '--dry-run' does not take an argument"],
    [['file.json'], "Unexpected argument 'file.json'"],
  ])('returns the refusal of %j as a message', (args, message) => {
    expect(parseCommandLine({ args, options })).toEqual(expect.stringContaining(message));
  });
});
