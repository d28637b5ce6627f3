/** The parts of a spec 2.10 message that name people by their roster sourcedId. */
export interface NamesPeople {
  recipient: { ext_id: string };
  alerts: readonly { alerts: readonly { entity: { ext_id: string } }[] }[];
}

/**
 * The roster sourcedIds a message names, once each: its recipient's `ext_id` and every alert
 * entity's (the alert generator builds them from `roster_users.sourced_id`). A data sharing must
 * share all of them for an app to receive the message.
 */
export function peopleNamed(m: NamesPeople): string[] {
  const ids = new Set<string>([m.recipient.ext_id]);
  for (const group of m.alerts) for (const alert of group.alerts) ids.add(alert.entity.ext_id);
  return [...ids];
}
