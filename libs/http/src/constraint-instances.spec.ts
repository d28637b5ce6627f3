import { getFromContainer, IsString, MaxLength } from 'class-validator';
import { constraintInstances } from './constraint-instances';
import { validateBody } from './validation';

class Greeting {
  @IsString()
  @MaxLength(5)
  text!: string;
}

describe('constraint instances', () => {
  it('is the container class-validator takes constraint instances from: one per class, kept', () => {
    class Probe {}
    const first = getFromContainer(Probe);
    expect(first).toBeInstanceOf(Probe);
    expect(getFromContainer(Probe)).toBe(first);
    expect(constraintInstances.get(Probe)).toBe(first);
  });

  it('serves the constraints validation uses: bodies are still checked field by field', async () => {
    const before = constraintInstances.size;
    await expect(validateBody(Greeting, { text: 'hello' })).resolves.toEqual({ text: 'hello' });
    await expect(validateBody(Greeting, { text: 'far too long' })).rejects.toMatchObject({
      details: { fields: [{ field: 'text', problems: [expect.stringContaining('5')] }] },
    });
    expect(constraintInstances.size).toBeGreaterThan(before);
  });
});
