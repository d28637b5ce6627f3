import { ALL_SCOPE_KEYS, ONEROSTER_V1P2_SCOPE_KEYS, ScopeCatalog, resolveScope } from './scopes';

describe('scope catalog', () => {
  const catalog = new ScopeCatalog({
    schemaBase: 'https://api.edu.example/',
    onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
  });

  it('builds service scopes under {schema_base} and OneRoster scopes under {oneroster_scope_base}', () => {
    expect(catalog.uri('id.tenant-core.readonly')).toBe('https://api.edu.example/scope/id/tenant-core.readonly');
    expect(catalog.uri('alerts.webhooks.write')).toBe('https://api.edu.example/scope/alerts/webhooks.write');
    expect(catalog.uri('platform.admin')).toBe('https://api.edu.example/scope/platform.admin');
    expect(catalog.uri('roster-demographics.readonly')).toBe(
      'https://purl.imsglobal.org/spec/or/v1p1/scope/roster-demographics.readonly',
    );
  });

  it('maps every URI back to its key and nothing else', () => {
    for (const key of ALL_SCOPE_KEYS) expect(catalog.keyOf(catalog.uri(key))).toBe(key);
    expect(catalog.keyOf('https://api.edu.example/scope/id/unknown')).toBeUndefined();
    expect(new Set(ALL_SCOPE_KEYS.map((k) => catalog.uri(k))).size).toBe(ALL_SCOPE_KEYS.length);
  });

  it('builds the OneRoster v1.2 scopes under their own base, the standard one by default', () => {
    expect(catalog.uri('v1p2.roster.readonly')).toBe('https://purl.imsglobal.org/spec/or/v1p2/scope/roster.readonly');
    expect(catalog.uri('v1p2.gradebook.createpost')).toBe(
      'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.createpost',
    );
    const custom = new ScopeCatalog({
      schemaBase: 'urn:x',
      onerosterBase: 'urn:y',
      oneroster12Base: 'https://or12.example/scope/',
    });
    expect(custom.uri('v1p2.assessment.delete')).toBe('https://or12.example/scope/assessment.delete');
    expect(custom.keyOf('https://purl.imsglobal.org/spec/or/v1p2/scope/assessment.delete')).toBeUndefined();
    // The same short name under the two versions' bases is two scopes.
    expect(catalog.keyOf('https://purl.imsglobal.org/spec/or/v1p1/scope/roster.readonly')).toBe('roster.readonly');
    expect(ONEROSTER_V1P2_SCOPE_KEYS).toHaveLength(13);
  });

  it('resolves with a base that has no trailing slash', () => {
    expect(resolveScope('id.apps.write', { schemaBase: 'urn:x', onerosterBase: 'urn:y' })).toBe(
      'urn:x/scope/id/apps.write',
    );
  });
});
