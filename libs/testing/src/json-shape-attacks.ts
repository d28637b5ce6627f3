import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '@edu/http';
import { routeInventory, type RouteEntry } from './route-inventory';

/** A JSON body every write route must refuse with 400 naming the limit it breaks. */
export interface JsonShapeAttack {
  name: string;
  body: string;
  /** Matches the error message: it names the limit. */
  names: RegExp;
}

const nested = (open: string, close: string, levels: number, inner = '') =>
  open.repeat(levels) + inner + close.repeat(levels);
const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
const items = (n: number) => `[${new Array<string>(n).fill('0').join(',')}]`;

const DEPTH = new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`);
const WIDTH = new RegExp(`more than ${MAX_JSON_MEMBERS} members`);
const many = (max: number) => new RegExp(`more than ${max} JSON objects and arrays`);

/**
 * Deeply nested, very wide and very dense bodies that used to overflow the stack of
 * class-transformer (500) or keep validation busy for seconds, each within the 1 MB body limit.
 * `maxContainers` is the route's object limit (routes taking large documents allow more).
 */
export function jsonShapeAttacks(maxContainers = MAX_JSON_CONTAINERS): JsonShapeAttack[] {
  const arrays = Math.ceil((maxContainers + 4_000) / 9_000);
  return [
    { name: 'arrays nested 3,000 levels (6 KB)', body: nested('[', ']', 3_000), names: DEPTH },
    {
      name: 'an unknown property holding objects nested 10,000 levels',
      body: `{"name":"x","a":${nested('{"a":', '}', 10_000, '1')}}`,
      names: DEPTH,
    },
    {
      name: `one level deeper than the limit (${MAX_JSON_DEPTH + 1})`,
      body: `{"name":"x","a":${nested('[', ']', MAX_JSON_DEPTH)}}`,
      names: DEPTH,
    },
    { name: 'an object with 100,000 keys', body: keys(100_000), names: WIDTH },
    { name: 'an unknown property holding 100,000 keys', body: `{"name":"x","a":${keys(100_000)}}`, names: WIDTH },
    { name: 'an array of 500,000 tiny items', body: items(500_000), names: WIDTH },
    { name: 'an unknown property holding 500,000 items', body: `{"a":${items(500_000)}}`, names: WIDTH },
    {
      name: 'a NUL character (\\u0000) in a string, which PostgreSQL cannot store',
      body: '{"name":"x\\u0000y","endpoint":"https://a.example/\\u0000"}',
      names: /U\+0000/,
    },
    {
      name: 'more empty objects than the limit, in arrays of 9,000',
      body: `{"a":[${new Array(arrays).fill(`[${new Array(9_000).fill('{}').join(',')}]`).join(',')}]}`,
      names: many(maxContainers),
    },
  ];
}

/** Deepest / widest body that is still accepted by the shape check (validation judges it). */
export function jsonAtShapeLimits(): { name: string; body: string }[] {
  return [
    { name: `nested exactly ${MAX_JSON_DEPTH} levels`, body: `{"a":${nested('[', ']', MAX_JSON_DEPTH - 1)}}` },
    { name: `${MAX_JSON_MEMBERS} items in one array`, body: `{"a":${items(MAX_JSON_MEMBERS)}}` },
  ];
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every route of the app that takes a body (so routes added later are covered automatically). */
export function writeRoutes(app: INestApplication): RouteEntry[] {
  return routeInventory(app).filter((r) => WRITE_METHODS.has(r.method));
}

/** A concrete path for a route: e-mail and domain parameters get plausible values, others a fresh UUID. */
export function concretePath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    if (/email/i.test(name)) return 'someone%40school.example';
    if (/domain/i.test(name)) return 'portal.school.example';
    return randomUUID();
  });
}
