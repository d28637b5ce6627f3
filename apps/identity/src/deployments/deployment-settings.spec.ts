import {
  DEPLOYMENT_SETTINGS,
  mergeSettings,
  SETTING_NAMES,
  settingsViewSchema,
  toSettingsView,
} from './deployment-settings';
import { dtoProblems } from '@edu/http';
import { DeploymentSettingsDto } from './dto/deployment-settings.dto';
import { QUOTA_SETTING_NAMES } from './rate-limit-settings';

describe('deployment settings', () => {
  it('the read shape names every setting, with its default when never set', () => {
    expect(toSettingsView({})).toEqual({
      oneroster_date_format: 'compact',
      oneroster_booleans: 'string',
      oneroster_profile: 'strict',
    });
    expect(toSettingsView(null)).toEqual(toSettingsView({}));
    expect(toSettingsView({ onerosterDateFormat: 'iso8601' })).toEqual({
      oneroster_date_format: 'iso8601',
      oneroster_booleans: 'string',
      oneroster_profile: 'strict',
    });
    // A quota appears once the operator set one; a stored value out of bounds reads as the default (left out).
    expect(toSettingsView({ rateLimitRead: 30, rateLimitWrite: 0, rateLimitGradebookWrite: 'x' as never })).toEqual({
      ...toSettingsView({}),
      rate_limit_read: 30,
    });
    expect(toSettingsView({ onerosterProfile: 'compatibility' }).oneroster_profile).toBe('compatibility');
    // A stored value that is no longer allowed reads as the default, as the OneRoster reader treats it.
    expect(toSettingsView({ onerosterBooleans: 'yes' as never }).oneroster_booleans).toBe('string');
  });

  it('a write sets the settings it names and keeps the others', () => {
    const stored = mergeSettings({}, { oneroster_date_format: 'iso8601' });
    expect(stored).toEqual({ onerosterDateFormat: 'iso8601' });
    expect(mergeSettings(stored, { oneroster_booleans: 'json' })).toEqual({
      onerosterDateFormat: 'iso8601',
      onerosterBooleans: 'json',
    });
    expect(mergeSettings(stored, { oneroster_date_format: 'compact' })).toEqual({ onerosterDateFormat: 'compact' });
    expect(mergeSettings(stored, undefined)).toEqual(stored);
    expect(mergeSettings(stored, { oneroster_profile: 'compatibility' })).toEqual({
      onerosterDateFormat: 'iso8601',
      onerosterProfile: 'compatibility',
    });
  });

  it('a quota write sets a number, null returns to the default, absence keeps it', () => {
    const stored = mergeSettings({ onerosterProfile: 'compatibility' }, { rate_limit_read: 30 });
    expect(stored).toEqual({ onerosterProfile: 'compatibility', rateLimitRead: 30 });
    expect(mergeSettings(stored, { rate_limit_gradebook_write: 5 })).toEqual({
      onerosterProfile: 'compatibility',
      rateLimitRead: 30,
      rateLimitGradebookWrite: 5,
    });
    expect(mergeSettings(stored, { rate_limit_read: null })).toEqual({ onerosterProfile: 'compatibility' });
    expect(mergeSettings(stored, { oneroster_booleans: 'json' })).toEqual({
      onerosterProfile: 'compatibility',
      onerosterBooleans: 'json',
      rateLimitRead: 30,
    });
  });

  it.each(QUOTA_SETTING_NAMES)(
    'the DTO takes %s as an integer within its bounds or null, and names it otherwise',
    async (name) => {
      for (const value of [1, 600, 1_000_000, null])
        expect((await dtoProblems(DeploymentSettingsDto, { [name]: value })).problems).toEqual([]);
      for (const bad of [0, -5, 1_000_001, 2.5, '60', true, [60], {}]) {
        const { problems } = await dtoProblems(DeploymentSettingsDto, { [name]: bad }, 'settings');
        expect(problems.map((p) => p.field)).toEqual([`settings.${name}`]);
      }
    },
  );

  // Guards the one-line-per-setting DTO against a table entry without its line.
  it.each(SETTING_NAMES)(
    'the DTO accepts every allowed value of %s and refuses anything else, naming the key',
    async (name) => {
      for (const value of DEPLOYMENT_SETTINGS[name].values)
        expect((await dtoProblems(DeploymentSettingsDto, { [name]: value })).problems).toEqual([]);
      for (const bad of ['ISO8601', '', null, 1, true, ['iso8601'], {}]) {
        const { problems } = await dtoProblems(DeploymentSettingsDto, { [name]: bad }, 'settings');
        expect(problems.map((p) => p.field)).toEqual([`settings.${name}`]);
      }
    },
  );

  it('the DTO refuses unknown keys and accepts an empty object', async () => {
    expect((await dtoProblems(DeploymentSettingsDto, {})).problems).toEqual([]);
    const { problems } = await dtoProblems(DeploymentSettingsDto, { onerosterDateFormat: 'iso8601' }, 'settings');
    expect(problems.map((p) => p.field)).toEqual(['settings.onerosterDateFormat']);
  });

  it('the OpenAPI schema lists every setting as required, with its values', () => {
    const schema = settingsViewSchema();
    expect(schema.required).toEqual(SETTING_NAMES);
    expect(schema.properties.rate_limit_read).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000 });
    expect(schema.properties.oneroster_date_format).toMatchObject({ enum: ['compact', 'iso8601'], default: 'compact' });
    expect(schema.properties.oneroster_profile).toMatchObject({ enum: ['strict', 'compatibility'], default: 'strict' });
  });
});
