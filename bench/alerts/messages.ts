/** Generated alert messages for the benchmark: realistic shapes, a chosen size. */
import { randomUUID } from 'node:crypto';

const person = (n: number) => ({
  uuid: randomUUID(),
  ext_id: `STU-${n}`,
  first_name: `Student${n}`,
  preferred_name: `S${n}`,
  last_name: 'Example',
  pronouns: ['they/them'],
  identifiers: { sis_id: `SIS-${n}`, lms_guid: randomUUID() },
});

function alertItem(n: number, detailRows: number): Record<string, unknown> {
  return {
    name: 'Attendance below 90%',
    id: randomUUID(),
    type: randomUUID(),
    trigger: { type: 'all', threshold_period: 'current_semester' },
    rows: [
      { type: 'type', key: 'Type', value: 'Attendance' },
      { type: 'trigger', key: 'Trigger', value: 'Below 90% this semester' },
      { type: 'link', key: 'Profile', value: `https://school.example/students/${n}` },
      {
        type: 'detail',
        key: 'Absences',
        list: Array.from(
          { length: detailRows },
          (_, i) => `Period ${(i % 6) + 1}, day ${i + 1}: absent without a note from a parent or carer`,
        ),
      },
    ],
    entity: person(n),
    student: { uuid: randomUUID(), current_homeroom: '9B', current_year_level: 9 },
  };
}

/**
 * One message for one staff recipient: `items` alerts about students in one group each (a typical
 * daily notification is a few items); `detailRows` grows the detail lists for large messages.
 */
export function benchMessage(items = 2, detailRows = 2): Record<string, unknown> {
  return {
    transaction_id: `bench-${randomUUID()}`,
    recipient: {
      entity_uuid: randomUUID(),
      ext_id: 'STAFF-1',
      name: 'Ms Alex Teacher',
      first_name: 'Alex',
      last_name: 'Teacher',
      preferred_name: 'Alex',
      primary_email: 'alex.teacher@school.example',
      identifiers: { sis_id: 'SIS-STAFF-1', lms_guid: randomUUID() },
    },
    alerts: Array.from({ length: items }, (_, i) => ({
      name: `Student${i}`,
      badges: [{ value: 'Year 9', color: '#1d4ed8' }],
      alert_count: '1 alert',
      alerts: [alertItem(i, detailRows)],
    })),
  };
}

/** A message whose JSON is about `bytes` long (alert items with long detail lists). */
export function largeMessage(bytes: number): Record<string, unknown> {
  const itemBytes = JSON.stringify(alertItem(0, 100)).length;
  return benchMessage(Math.max(1, Math.round(bytes / itemBytes)), 100);
}
