/**
 * Component schemas of the OneRoster v1.2 documents, generated from the v1.2 field catalogs (the
 * fields the service filters, sorts and writes with) and the v1.2 view of the tables (which gives
 * each GUIDRef field its one `type`). Every object is closed, as the v1.2 binding requires; only
 * `metadata` and a credential are open.
 */
import type { ReferenceObject, SchemaObject } from '@edu/http';
import {
  getCatalog,
  RESOURCE_KEYS,
  V1P2_GUID_REF_TYPES,
  V1P2_RESOURCES,
  V1P2_ROLE_KINDS,
  V1P2_ROLE_TYPES,
  type FieldDef,
  type ImsxCodeMinorValue,
  type V1p2Resource,
} from '@edu/oneroster-query';
import { tableOf } from '../query/roster-tables-v1p2';

type Schema = SchemaObject | ReferenceObject;

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `User`, `UserSet` (collection wrapper), `UserSingle` (single wrapper). */
export const className = (r: V1p2Resource): string => cap(r);
export const setName = (r: V1p2Resource): string => `${cap(r)}Set`;
export const singleName = (r: V1p2Resource): string => `${cap(r)}Single`;
export const STATUS_INFO = 'StatusInfo';
export const GUID_PAIR_SET = 'GUIDPairSet';
const guidRefName = (type: string) => `${cap(type)}GUIDRef`;

const str: SchemaObject = { type: 'string' };
const closed = (properties: Record<string, Schema>, required: string[]): SchemaObject => ({
  type: 'object',
  required,
  properties,
  additionalProperties: false,
});
const arrayOf = (items: Schema): SchemaObject => ({ type: 'array', items });
const DATE: SchemaObject = { type: 'string', format: 'date' };
const EXT: SchemaObject = { type: 'string', pattern: '^ext:[A-Za-z0-9._-]+$', description: 'An extension value' };

function enumSchema(values: readonly string[], extensible = false): SchemaObject {
  const listed: SchemaObject = { type: 'string', enum: [...values] };
  return extensible ? { anyOf: [listed, EXT] } : listed;
}

/**
 * Fields the information model requires per class, besides sourcedId, status and
 * dateLastModified (reference v1.2 §4). Every other field is omitted when it has no value.
 */
const REQUIRED: Readonly<Record<V1p2Resource, readonly string[]>> = {
  academicSession: ['title', 'startDate', 'endDate', 'type', 'schoolYear'],
  class: ['title', 'course', 'school', 'terms'],
  course: ['title', 'courseCode'],
  demographics: [],
  enrollment: ['user', 'class', 'school', 'role'],
  org: ['name', 'type', 'identifier'],
  user: ['enabledUser', 'givenName', 'familyName', 'roles'],
  category: ['title'],
  lineItem: ['title', 'assignDate', 'dueDate', 'class', 'school', 'category'],
  result: ['lineItem', 'student', 'scoreStatus', 'scoreDate'],
  scoreScale: ['title', 'type', 'class', 'scoreScaleValue'],
  assessmentLineItem: ['title'],
  assessmentResult: ['assessmentLineItem', 'student', 'scoreDate', 'scoreStatus'],
  resource: ['vendorResourceId'],
};
const BASE_REQUIRED = ['sourcedId', 'status', 'dateLastModified'];

/** Results carry learning objective scores; line items the objectives themselves. */
const SCORED: ReadonlySet<V1p2Resource> = new Set(['result', 'assessmentResult']);

/** The GUIDRef `type` of a reference field: the one the v1.2 view writes for it. */
function refType(r: V1p2Resource, field: string): string {
  const source = tableOf(r, 'v1p2').columns[field];
  if (!source || !('ref' in source)) throw new TypeError(`No GUIDRef target for v1.2 ${r}.${field}`);
  return source.ref.type;
}

function fieldSchema(r: V1p2Resource, f: FieldDef): Schema {
  switch (f.kind) {
    case 'string':
      return str;
    case 'enum':
      return enumSchema(f.values ?? [], f.extensible);
    case 'date':
      return DATE;
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'boolean':
      return { type: 'string', enum: ['true', 'false'] };
    case 'year':
      return { type: 'string', pattern: '^[0-9]{4}$', description: 'The year the school year ends' };
    case 'number':
      return { type: 'number' };
    case 'stringList':
      return arrayOf(f.values ? enumSchema(f.values, f.extensible) : str);
    case 'guidRef':
      return ref(guidRefName(refType(r, f.name)));
    case 'guidRefList':
      return arrayOf(ref(guidRefName(refType(r, f.name))));
    case 'userIds':
      return arrayOf(ref('UserId'));
    case 'metadata':
      return { type: 'object', additionalProperties: true, description: 'Extensions: the only open object' };
    case 'roles':
      return arrayOf(ref('Role'));
    case 'userProfiles':
      return arrayOf(ref('UserProfile'));
    case 'learningObjectives':
      return arrayOf(ref(SCORED.has(r) ? 'LearningObjectiveScoreSet' : 'LearningObjectiveSet'));
    case 'scoreScaleValues':
      return arrayOf(ref('ScoreScaleValue'));
  }
}

/** One class from its v1.2 catalog; a required list must hold at least one element. */
function classSchema(r: V1p2Resource): SchemaObject {
  // `password` is in the model but never stored, so never written.
  const fields = getCatalog(r, 'v1p2').fields.filter((f) => f.name !== 'password');
  const required = fields.map((f) => f.name).filter((n) => BASE_REQUIRED.includes(n) || REQUIRED[r].includes(n));
  const properties = Object.fromEntries(
    fields.map((f) => {
      const schema = fieldSchema(r, f);
      return [
        f.name,
        required.includes(f.name) && 'type' in schema && schema.type === 'array' ? { ...schema, minItems: 1 } : schema,
      ];
    }),
  );
  return {
    ...closed(properties, required),
    description: `OneRoster v1.2 ${r}. With \`fields\`, only the fields asked for are written, required or not.`,
  };
}

/** A learning objective source: `case`, `unknown`, or a lower-case name stored with a leading `/`. */
const OBJECTIVE_SOURCE: SchemaObject = {
  anyOf: [
    { type: 'string', enum: ['case', 'unknown'] },
    { type: 'string', pattern: '^/[a-z0-9]+$' },
  ],
};

/** The structured lists of v1.2 classes. */
function embeddedSchemas(): Record<string, SchemaObject> {
  return {
    UserId: closed({ type: str, identifier: str }, ['type', 'identifier']),
    Role: closed(
      {
        roleType: enumSchema(V1P2_ROLE_KINDS),
        role: enumSchema(V1P2_ROLE_TYPES, true),
        org: ref(guidRefName(refType('user', 'roles'))),
        userProfile: { type: 'string', format: 'uri', description: 'The profileId of one of the user’s userProfiles' },
        beginDate: DATE,
        endDate: DATE,
      },
      ['roleType', 'role', 'org'],
    ),
    UserProfile: closed(
      {
        profileId: { type: 'string', format: 'uri' },
        profileType: str,
        vendorId: str,
        applicationId: str,
        description: str,
        credentials: arrayOf(ref('Credential')),
      },
      ['profileId', 'profileType', 'vendorId'],
    ),
    // The model leaves credentials open.
    Credential: {
      type: 'object',
      required: ['type', 'username'],
      properties: { type: str, username: str, password: str },
      additionalProperties: true,
    },
    LearningObjectiveSet: closed({ source: OBJECTIVE_SOURCE, learningObjectiveIds: { ...arrayOf(str), minItems: 1 } }, [
      'source',
      'learningObjectiveIds',
    ]),
    LearningObjectiveScoreSet: closed(
      {
        source: OBJECTIVE_SOURCE,
        learningObjectiveResults: { ...arrayOf(ref('LearningObjectiveResult')), minItems: 1 },
      },
      ['source', 'learningObjectiveResults'],
    ),
    LearningObjectiveResult: closed({ learningObjectiveId: str, score: { type: 'number' }, textScore: str }, [
      'learningObjectiveId',
    ]),
    ScoreScaleValue: closed({ itemValueLHS: str, itemValueRHS: str }, ['itemValueLHS', 'itemValueRHS']),
    GUIDPair: closed({ suppliedSourcedId: str, allocatedSourcedId: str }, ['suppliedSourcedId', 'allocatedSourcedId']),
    [GUID_PAIR_SET]: closed({ sourcedIdPairs: arrayOf(ref('GUIDPair')) }, ['sourcedIdPairs']),
  };
}

/** The codeMinor values a v1.2 error carries (an unsupported operation has none). */
const CODE_MINOR: ImsxCodeMinorValue[] = [
  'invalid_filter_field',
  'invalid_selection_field',
  'invalid_sort_field',
  'invaliddata',
  'unauthorisedrequest',
  'forbidden',
  'unknownobject',
  'server_busy',
  'internal_server_error',
];

/** The bare v1.2 error body: no `statusInfoSet` around it, no message or operation identifiers. */
const statusInfo: SchemaObject = closed(
  {
    imsx_codeMajor: enumSchema(['success', 'processing', 'failure', 'unsupported']),
    imsx_severity: enumSchema(['status', 'warning', 'error']),
    imsx_description: str,
    imsx_CodeMinor: closed(
      {
        imsx_codeMinorField: {
          ...arrayOf(
            closed(
              {
                imsx_codeMinorFieldName: {
                  type: 'string',
                  description: 'TargetEndSystem, or the query parameter at fault',
                },
                imsx_codeMinorFieldValue: enumSchema(CODE_MINOR),
              },
              ['imsx_codeMinorFieldName', 'imsx_codeMinorFieldValue'],
            ),
          ),
          minItems: 1,
        },
      },
      ['imsx_codeMinorField'],
    ),
  },
  ['imsx_codeMajor', 'imsx_severity'],
);

/** A GUIDRef whose `type` is the one literal of its field. */
function guidRef(type: string): SchemaObject {
  return closed({ href: { type: 'string', format: 'uri' }, sourcedId: str, type: { type: 'string', enum: [type] } }, [
    'href',
    'sourcedId',
    'type',
  ]);
}

/**
 * Every v1.2 schema: the classes with their Set and Single wrappers (one key each), the GUIDRef
 * of each reference type, the embedded lists and the error body. A document keeps the ones its
 * operations reach.
 */
export function v1p2Schemas(): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = { [STATUS_INFO]: statusInfo, ...embeddedSchemas() };
  for (const r of V1P2_RESOURCES) {
    const keys = RESOURCE_KEYS[r];
    schemas[className(r)] = classSchema(r);
    schemas[setName(r)] = closed({ [keys.collection]: arrayOf(ref(className(r))) }, [keys.collection]);
    schemas[singleName(r)] = closed({ [keys.single]: ref(className(r)) }, [keys.single]);
  }
  for (const type of V1P2_GUID_REF_TYPES) schemas[guidRefName(type)] = guidRef(type);
  return schemas;
}
