// Builds realistic generated alert messages (spec 2.10, as `POST /v2/alerts/messages` takes them)
// from rostering data: a teacher as recipient, alerts about some of their students.
'use strict';
const { createHash, randomUUID } = require('node:crypto');

/** A stable UUID for a roster object (roster ids are not UUIDs): SHA-1 name-based, version 5 layout. */
function stableUuid(...parts) {
  const h = createHash('sha1').update(parts.join('\u0000')).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** OneRoster grade code (`05`, `KG`, `PK`, ...) as a year level number. */
function yearLevel(grades) {
  for (const g of grades || []) {
    if (/^\d{1,2}$/.test(g)) return Number(g);
    if (g === 'KG' || g === 'TK') return 0;
    if (g === 'PK') return -1;
    if (g === 'PR') return -2;
    if (g === 'IT') return -3;
  }
  return undefined;
}

const DAY = 86_400_000;
const dayLabel = (d) =>
  d.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/** The last `n` school days (Monday to Friday) before `now`, oldest first. */
function schoolDaysBefore(now, n) {
  const days = [];
  for (let t = now.getTime() - DAY; days.length < n; t -= DAY) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.unshift(d);
  }
  return days;
}

const pick = (rng, list) => list[Math.floor(rng() * list.length)];
const between = (rng, lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
/** `k` distinct items of `list`, in a random order. */
function sample(rng, list, k) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, k);
}

/** Alert types: a fixed id per kind (the generator's alert type ids), name, badge and row content. */
const KINDS = {
  attendance: {
    typeId: '5a1e0c2b-7d44-4f0e-9a61-3b8f2c9d1e01',
    badge: { value: 'Attendance', color: '#b45309' },
    build(rng, ctx) {
      const rate = between(rng, 78, 89);
      const days = sample(rng, schoolDaysBefore(ctx.now, 15), between(rng, 2, 4)).sort((a, b) => a - b);
      const notes = [
        'absent, no explanation received',
        'absent, parent called in sick',
        'late arrival (09:20)',
        'left early, no note',
        'absent from period 3',
      ];
      return {
        name: `Attendance below 90% (${rate}%)`,
        trigger: { type: 'all', threshold_period: 'last_3_weeks' },
        rows: [
          { type: 'type', key: 'Type', value: 'Attendance' },
          { type: 'trigger', key: 'Trigger', value: `Attendance ${rate}% over the last 3 weeks (threshold 90%)` },
          { type: 'link', key: 'Attendance record', value: ctx.link('attendance') },
          {
            type: 'detail',
            key: 'Absences and late arrivals',
            list: days.map((d) => `${dayLabel(d)}: ${pick(rng, notes)}`),
          },
        ],
      };
    },
  },
  wellbeing: {
    typeId: '5a1e0c2b-7d44-4f0e-9a61-3b8f2c9d1e02',
    badge: { value: 'Wellbeing', color: '#be123c' },
    build(rng, ctx) {
      const days = schoolDaysBefore(ctx.now, 5).filter((_, i) => i % 2 === 0);
      const comments = [
        '"tired"',
        '"worried about tests"',
        '"had a fight with a friend"',
        '"not sleeping well"',
        '"feeling left out at lunch"',
        'no comment',
      ];
      return {
        name: 'Low wellbeing check-ins',
        trigger: { type: 'any', threshold_period: 'last_week' },
        rows: [
          { type: 'type', key: 'Type', value: 'Wellbeing' },
          { type: 'trigger', key: 'Trigger', value: `${days.length} check-ins at 2/5 or lower in a week` },
          { type: 'link', key: 'Check-in history', value: ctx.link('wellbeing') },
          {
            type: 'detail',
            key: 'Recent check-ins',
            list: days.map((d) => `${dayLabel(d)}: ${between(rng, 1, 2)}/5, ${pick(rng, comments)}`),
          },
        ],
      };
    },
  },
  grades: {
    typeId: '5a1e0c2b-7d44-4f0e-9a61-3b8f2c9d1e03',
    badge: { value: 'Grades', color: '#4338ca' },
    build(rng, ctx) {
      const subject = ctx.subject;
      const before = between(rng, 72, 86);
      const drop = between(rng, 12, 22);
      const days = schoolDaysBefore(ctx.now, 20);
      const tasks = ['Quiz', 'Assignment', 'Topic test', 'Worksheet'];
      const results = [0, 1, 2].map(
        (i) => `${pick(rng, tasks)} ${i + 2} (${dayLabel(days[4 + i * 6])}): ${before - drop + between(rng, -6, 6)}%`,
      );
      return {
        name: `Grade drop in ${subject}`,
        trigger: { type: 'all', threshold_period: 'current_term' },
        rows: [
          { type: 'type', key: 'Type', value: 'Grades' },
          {
            type: 'trigger',
            key: 'Trigger',
            value: `${subject} average down ${drop} points this term (from ${before}% to ${before - drop}%)`,
          },
          { type: 'link', key: 'Gradebook', value: ctx.link('grades') },
          { type: 'detail', key: `Recent ${subject} results`, list: [`Last term average: ${before}%`, ...results] },
        ],
      };
    },
  },
};

const fullName = (u) => `${u.given_name} ${u.family_name}`.trim();

function identifiers(tenantId, u) {
  return { sis_id: u.identifier || u.sourced_id, lms_guid: stableUuid(tenantId, 'lms', u.sourced_id) };
}

/** The subject the teacher teaches the student, for grade alerts. */
function subjectFor(student) {
  const classes = Array.isArray(student.classes) ? student.classes : [];
  const scheduled =
    classes.find((c) => c.type === 'scheduled' && c.subjects && c.subjects.length) ||
    classes.find((c) => c.subjects && c.subjects.length);
  if (scheduled) return scheduled.subjects[0];
  return classes[0] ? classes[0].title : 'English';
}

/**
 * One message for `teacher` about 1 to 3 of `students` (each with 1 to 3 alerts of kinds
 * attendance, wellbeing, grades). `rng` returns numbers in [0, 1); `now` dates the details.
 */
function buildMessage({
  tenantId,
  teacher,
  students,
  rng = Math.random,
  now = new Date(),
  transactionId = `demo-${randomUUID()}`,
  linkBase = 'https://alerts.edu.example',
}) {
  const chosen = sample(rng, students, Math.min(students.length, between(rng, 1, 3)));
  const groups = chosen.map((s) => {
    const uuid = stableUuid(tenantId, 'user', s.sourced_id);
    const classes = Array.isArray(s.classes) ? s.classes : [];
    const level = yearLevel(s.grades) ?? yearLevel(classes.flatMap((c) => c.grades || [])) ?? 0;
    const homeroom = s.homeroom || (classes[0] && classes[0].title) || '';
    const kinds = sample(rng, Object.keys(KINDS), between(rng, 1, 3));
    const ctx = {
      now,
      subject: subjectFor(s),
      link: (what) => `${linkBase}/students/${encodeURIComponent(s.sourced_id)}/${what}`,
    };
    const alerts = kinds.map((k) => {
      const made = KINDS[k].build(rng, ctx);
      return {
        name: made.name,
        id: randomUUID(),
        type: KINDS[k].typeId,
        trigger: made.trigger,
        rows: made.rows,
        entity: {
          uuid,
          ext_id: s.sourced_id,
          first_name: s.given_name,
          preferred_name: s.given_name,
          last_name: s.family_name,
          pronouns: [],
          identifiers: identifiers(tenantId, s),
        },
        student: { uuid, current_homeroom: homeroom, current_year_level: Math.max(-5, Math.min(30, level)) },
      };
    });
    const badges = [
      { value: level > 0 ? `Year ${level}` : level === 0 ? 'Kindergarten' : 'Preschool', color: '#1d4ed8' },
    ];
    if (homeroom) badges.push({ value: homeroom, color: '#0f766e' });
    for (const k of kinds) badges.push(KINDS[k].badge);
    return {
      name: fullName(s),
      badges,
      alert_count: `${alerts.length} alert${alerts.length === 1 ? '' : 's'}`,
      alerts,
    };
  });
  return {
    transaction_id: transactionId,
    recipient: {
      entity_uuid: stableUuid(tenantId, 'user', teacher.sourced_id),
      ext_id: teacher.sourced_id,
      name: fullName(teacher),
      first_name: teacher.given_name,
      last_name: teacher.family_name,
      preferred_name: teacher.given_name,
      primary_email: teacher.email || `${teacher.username || teacher.sourced_id}@school.example`,
      identifiers: identifiers(tenantId, teacher),
    },
    alerts: groups,
  };
}

module.exports = { buildMessage, stableUuid, yearLevel, schoolDaysBefore };
