/**
 * The import worker loads its modules afresh in a new thread for every import, before the first
 * row is read: the frameworks the services run on (about 1,100 modules, 0.7 s) must stay out of it.
 */
const FRAMEWORKS = ['typeorm', '@nestjs/common', '@nestjs/core', 'class-validator', 'class-transformer', 'rxjs'];

describe('the import worker’s modules', () => {
  it('load without TypeORM, Nest or class-validator', async () => {
    const loaded: string[] = [];
    for (const name of FRAMEWORKS)
      jest.doMock(name, () => {
        loaded.push(name);
        return jest.requireActual(name);
      });
    await jest.isolateModulesAsync(async () => {
      // What import-worker.ts requires once the path aliases are registered.
      await import('./import-runner');
      await import('./roster-importer');
    });
    expect(loaded).toEqual([]);
  });

  it('would notice a framework pulled in', async () => {
    const loaded: string[] = [];
    jest.doMock('typeorm', () => {
      loaded.push('typeorm');
      return jest.requireActual('typeorm');
    });
    await jest.isolateModulesAsync(async () => {
      await import('@edu/persistence');
    });
    expect(loaded).toEqual(['typeorm']);
  });
});
