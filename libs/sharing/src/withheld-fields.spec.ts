import { withheldFields, withholdFromAlertMessage } from './withheld-fields';

const recipient = {
  entity_uuid: 'u-1',
  ext_id: 'T-1',
  name: 'Ms Jane Citizen',
  first_name: 'Jane',
  last_name: 'Citizen',
  preferred_name: 'Jane',
  primary_email: 'jane@school.example',
  identifiers: { sis_id: 'SIS-1', lms_guid: 'g-1' },
};
const entity = {
  uuid: 'u-2',
  ext_id: 'S-1',
  first_name: 'Ana',
  preferred_name: 'Annie',
  last_name: 'Lee',
  pronouns: ['she/her'],
  identifiers: { sis_id: 'SIS-2', lms_guid: 'g-2' },
};
const alerts = [{ name: 'Ana Lee', badges: [], alerts: [{ name: 'Attendance', entity, rows: [] }] }];

describe('withheld fields of an alert message', () => {
  it('leaves the message as it is when nothing it holds is withheld', () => {
    const out = withholdFromAlertMessage(recipient, alerts, ['demographics', 'birth_date']);
    expect(out.recipient).toBe(recipient);
    expect(out.alerts).toBe(alerts);
  });

  it('leaves out the e-mail for contact, identifiers for identifiers, preferred names and pronouns for preferred_names', () => {
    const keys = (withhold: Parameters<typeof withholdFromAlertMessage>[2]) => {
      const out = withholdFromAlertMessage(recipient, alerts, withhold);
      const group = out.alerts[0] as { alerts: { entity: object }[] };
      return [Object.keys(out.recipient as object), Object.keys(group.alerts[0].entity)];
    };
    expect(keys(['contact'])).toEqual([
      ['entity_uuid', 'ext_id', 'name', 'first_name', 'last_name', 'preferred_name', 'identifiers'],
      Object.keys(entity),
    ]);
    expect(keys(['identifiers'])).toEqual([
      ['entity_uuid', 'ext_id', 'name', 'first_name', 'last_name', 'preferred_name', 'primary_email'],
      ['uuid', 'ext_id', 'first_name', 'preferred_name', 'last_name', 'pronouns'],
    ]);
    expect(keys(['preferred_names'])).toEqual([
      ['entity_uuid', 'ext_id', 'name', 'first_name', 'last_name', 'primary_email', 'identifiers'],
      ['uuid', 'ext_id', 'first_name', 'last_name', 'identifiers'],
    ]);
    // The input is not changed.
    expect(recipient.primary_email).toBe('jane@school.example');
    expect(entity.pronouns).toEqual(['she/her']);
  });

  it('keeps the OneRoster fields of each category as they were', () => {
    expect([...withheldFields('user', ['contact'])]).toEqual(['email', 'phone', 'sms']);
    expect([...withheldFields('alertRecipient', ['contact', 'identifiers'])]).toEqual(['primary_email', 'identifiers']);
  });
});
