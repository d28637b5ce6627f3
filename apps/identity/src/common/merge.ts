/**
 * Merges a PATCH body into the current object (request-body shape). Top-level fields replace
 * whole; when the discriminator (e.g. `auth_type`) changes and the patch does not bring the new
 * variant's settings, the old variant's settings are dropped so the merged object can be
 * validated against the create rules.
 */
export function mergePatch(
  current: Record<string, unknown>,
  patch: object,
  discriminated?: { key: string; variants: Record<string, string> },
): Record<string, unknown> {
  const given = Object.fromEntries(Object.entries(JSON.parse(JSON.stringify(patch)) as Record<string, unknown>));
  const merged: Record<string, unknown> = { ...current, ...given };
  if (discriminated) {
    const next = given[discriminated.key];
    if (typeof next === 'string' && next !== current[discriminated.key]) {
      for (const [variant, prop] of Object.entries(discriminated.variants)) {
        if (variant !== next && given[prop] === undefined) delete merged[prop];
      }
    }
  }
  return merged;
}
