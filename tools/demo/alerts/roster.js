// Reads what the demo alert generator needs from a tenant's rostering data (the tables the
// OneRoster import fills): teachers, the students of their classes, homerooms and year levels.
'use strict';

const ACTIVE = `status = 'active'`;

/** The tenant's id and name, or undefined when there is no such tenant. */
async function findTenant(db, tenantId) {
  const { rows } = await db.query('SELECT id, name FROM tenants WHERE id = $1', [tenantId]);
  return rows[0];
}

/** Tenants holding rostered students, for the error that names the choices. */
async function tenantsWithRoster(db) {
  const { rows } = await db.query(
    `SELECT t.id, t.name, count(*)::int AS students
       FROM tenants t JOIN roster_users u ON u.tenant_id = t.id AND u.role = 'student' AND u.${ACTIVE}
      GROUP BY t.id, t.name ORDER BY t.name`,
  );
  return rows;
}

/** Teachers of active classes that have students, with their student counts (most first). */
async function teachersWithStudents(db, tenantId) {
  const { rows } = await db.query(
    `SELECT t.sourced_id, t.given_name, t.family_name, t.username, t.email, t.identifier, count(DISTINCT se.user_sourced_id)::int AS students
       FROM roster_enrollments te
       JOIN roster_users t ON t.tenant_id = te.tenant_id AND t.sourced_id = te.user_sourced_id AND t.${ACTIVE}
       JOIN roster_enrollments se ON se.tenant_id = te.tenant_id AND se.class_sourced_id = te.class_sourced_id AND se.role = 'student' AND se.${ACTIVE}
      WHERE te.tenant_id = $1 AND te.role = 'teacher' AND te.${ACTIVE}
      GROUP BY t.sourced_id, t.given_name, t.family_name, t.username, t.email, t.identifier
      ORDER BY students DESC, t.sourced_id
      LIMIT 200`,
    [tenantId],
  );
  return rows;
}

/**
 * The students a teacher teaches: one row per student with the teacher's classes they are in
 * (title, subjects), their homeroom (class code or title) and grade codes.
 */
async function studentsOf(db, tenantId, teacherSourcedId) {
  const { rows } = await db.query(
    `WITH taught AS (
       SELECT c.sourced_id, c.title, c.class_code, c.class_type, c.subjects, c.grades
         FROM roster_enrollments te
         JOIN roster_classes c ON c.tenant_id = te.tenant_id AND c.sourced_id = te.class_sourced_id AND c.${ACTIVE}
        WHERE te.tenant_id = $1 AND te.user_sourced_id = $2 AND te.role = 'teacher' AND te.${ACTIVE})
     SELECT s.sourced_id, s.given_name, s.family_name, s.username, s.email, s.identifier, s.grades,
            json_agg(json_build_object('title', taught.title, 'type', taught.class_type, 'subjects', taught.subjects, 'grades', taught.grades) ORDER BY taught.sourced_id) AS classes,
            (SELECT coalesce(h.class_code, h.title) FROM roster_enrollments he
               JOIN roster_classes h ON h.tenant_id = he.tenant_id AND h.sourced_id = he.class_sourced_id AND h.class_type = 'homeroom' AND h.${ACTIVE}
              WHERE he.tenant_id = $1 AND he.user_sourced_id = s.sourced_id AND he.role = 'student' AND he.${ACTIVE}
              ORDER BY h.sourced_id LIMIT 1) AS homeroom
       FROM taught
       JOIN roster_enrollments se ON se.tenant_id = $1 AND se.class_sourced_id = taught.sourced_id AND se.role = 'student' AND se.${ACTIVE}
       JOIN roster_users s ON s.tenant_id = se.tenant_id AND s.sourced_id = se.user_sourced_id AND s.${ACTIVE}
      GROUP BY s.sourced_id, s.given_name, s.family_name, s.username, s.email, s.identifier, s.grades
      ORDER BY s.sourced_id
      LIMIT 500`,
    [tenantId, teacherSourcedId],
  );
  return rows;
}

module.exports = { findTenant, tenantsWithRoster, teachersWithStudents, studentsOf };
