import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const load = createRequire(__filename);
const { SNAPSHOTS, render } = load(
  '../../tools/sql/hand-written-sql',
) as typeof import('../../tools/sql/hand-written-sql');
const ROOT = path.resolve(__dirname, '../..');

/**
 * The alerts API's, the dispatcher's and the delivery store's hand-written statements are checked
 * in under sql/ and reviewed like code: a statement changed without its file fails here.
 * `npm run sql:snapshots` writes the files anew.
 */
describe('hand-written SQL snapshots (sql/)', () => {
  it.each(Object.entries(SNAPSHOTS))('%s lists the statements of %s as they are', (snapshot, dirs) => {
    expect(readFileSync(path.join(ROOT, snapshot), 'utf8')).toBe(render(snapshot, dirs));
  });
});
