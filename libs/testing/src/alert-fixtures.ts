import { randomUUID } from 'node:crypto';

/** A valid generated alert message as the operator endpoint takes it (spec 2.10, without the service's fields). */
export function sampleAlertMessage(
  o: { transactionId?: string; items?: number; groups?: number; rowText?: string } = {},
): Record<string, unknown> {
  const items = o.items ?? 1;
  const groups = o.groups ?? 1;
  const person = (first: string, last: string) => ({
    uuid: randomUUID(),
    ext_id: `EXT-${first}`,
    first_name: first,
    preferred_name: first,
    last_name: last,
    pronouns: ['she/her'],
    identifiers: { sis_id: `SIS-${first}`, lms_guid: randomUUID() },
  });
  return {
    transaction_id: o.transactionId ?? `tx-${randomUUID()}`,
    recipient: {
      entity_uuid: randomUUID(),
      ext_id: 'STAFF-7',
      name: 'Ms Jane Citizen',
      first_name: 'Jane',
      last_name: 'Citizen',
      preferred_name: 'Jane',
      primary_email: 'jane.citizen@school.example',
      identifiers: { sis_id: 'SIS-STAFF-7', lms_guid: randomUUID() },
    },
    alerts: Array.from({ length: groups }, (_, g) => ({
      name: `Student ${g + 1}`,
      badges: [{ value: 'Year 9', color: '#1d4ed8' }],
      alert_count: `${items} alerts`,
      alerts: Array.from({ length: items }, (_, i) => ({
        name: 'Attendance below 90%',
        id: randomUUID(),
        type: randomUUID(),
        trigger: { type: 'all', threshold_period: 'current_semester' },
        rows: [
          { type: 'type', key: 'Type', value: 'Attendance' },
          { type: 'trigger', key: 'Trigger', value: `Below 90% (${i})` },
          { type: 'link', key: 'Profile', value: 'https://school.example/students/1' },
          { type: 'detail', key: 'Absences', list: [o.rowText ?? 'Mon 3 Feb', 'Tue 4 Feb'] },
        ],
        entity: person(`Stu${g}`, `Dent${i}`),
        student: { uuid: randomUUID(), current_homeroom: '9B', current_year_level: 9 },
      })),
    })),
  };
}
