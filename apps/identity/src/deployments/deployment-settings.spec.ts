import { dtoProblems } from '../common/validation/dto-validation';
import { DEPLOYMENT_SETTINGS, mergeSettings, SETTING_NAMES, settingsViewSchema, toSettingsView } from './deployment-settings';
import { DeploymentSettingsDto } from './dto/deployment-settings.dto';

describe('deployment settings', () => {
  it('the read shape names every setting, with its default when never set', () => {
    expect(toSettingsView({})).toEqual({ oneroster_date_format: 'compact', oneroster_booleans: 'string', oneroster_profile: 'strict' });
    expect(toSettingsView(null)).toEqual(toSettingsView({}));
    expect(toSettingsView({ onerosterDateFormat: 'iso8601' })).toEqual({ oneroster_date_format: 'iso8601', oneroster_booleans: 'string', oneroster_profile: 'strict' });
    expect(toSettingsView({ onerosterProfile: 'compatibility' }).oneroster_profile).toBe('compatibility');
    // A stored value that is no longer allowed reads as the default, as the OneRoster reader treats it.
    expect(toSettingsView({ onerosterBooleans: 'yes' as never }).oneroster_booleans).toBe('string');
  });

  it('a write sets the settings it names and keeps the others', () => {
    const stored = mergeSettings({}, { oneroster_date_format: 'iso8601' });
    expect(stored).toEqual({ onerosterDateFormat: 'iso8601' });
    expect(mergeSettings(stored, { oneroster_booleans: 'json' })).toEqual({ onerosterDateFormat: 'iso8601', onerosterBooleans: 'json' });
    expect(mergeSettings(stored, { oneroster_date_format: 'compact' })).toEqual({ onerosterDateFormat: 'compact' });
    expect(mergeSettings(stored, undefined)).toEqual(stored);
    expect(mergeSettings(stored, { oneroster_profile: 'compatibility' })).toEqual({ onerosterDateFormat: 'iso8601', onerosterProfile: 'compatibility' });
  });

  // Guards the one-line-per-setting DTO against a table entry without its line.
  it.each(SETTING_NAMES)('the DTO accepts every allowed value of %s and refuses anything else, naming the key', async (name) => {
    for (const value of DEPLOYMENT_SETTINGS[name].values) expect((await dtoProblems(DeploymentSettingsDto, { [name]: value })).problems).toEqual([]);
    for (const bad of ['ISO8601', '', null, 1, true, ['iso8601'], {}]) {
      const { problems } = await dtoProblems(DeploymentSettingsDto, { [name]: bad }, 'settings');
      expect(problems.map((p) => p.field)).toEqual([`settings.${name}`]);
    }
  });

  it('the DTO refuses unknown keys and accepts an empty object', async () => {
    expect((await dtoProblems(DeploymentSettingsDto, {})).problems).toEqual([]);
    const { problems } = await dtoProblems(DeploymentSettingsDto, { onerosterDateFormat: 'iso8601' }, 'settings');
    expect(problems.map((p) => p.field)).toEqual(['settings.onerosterDateFormat']);
  });

  it('the OpenAPI schema lists every setting as required, with its values', () => {
    const schema = settingsViewSchema();
    expect(schema.required).toEqual(SETTING_NAMES);
    expect(schema.properties.oneroster_date_format).toMatchObject({ enum: ['compact', 'iso8601'], default: 'compact' });
    expect(schema.properties.oneroster_profile).toMatchObject({ enum: ['strict', 'compatibility'], default: 'strict' });
  });
});
