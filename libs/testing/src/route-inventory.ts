import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from '@edu/auth';
import type { ScopeKey } from '@edu/domain';

export interface RouteEntry {
  method: string;
  path: string;
  /** `public`, the accepted scope keys separated by spaces, or `NONE` (refused for everyone). */
  access: string;
}

const join = (...parts: Array<string | undefined>): string =>
  `/${parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`;

/** Every controller route of an app with who may call it, read from the auth decorators' metadata. */
export function routeInventory(app: INestApplication): RouteEntry[] {
  const reflector = new Reflector();
  const routes: RouteEntry[] = [];
  const seen = new Set<unknown>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!cls || seen.has(cls)) continue;
      seen.add(cls);
      const base = Reflect.getMetadata(PATH_METADATA, cls) as string | undefined;
      const proto = cls.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPath === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number] as string;
        const isPublic = reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, cls]);
        const scopes = reflector.getAllAndOverride<ScopeKey[] | undefined>(REQUIRED_SCOPES, [handler, cls]);
        const access = isPublic ? 'public' : scopes?.length ? scopes.join(' ') : 'NONE';
        for (const p of Array.isArray(methodPath) ? methodPath : [methodPath]) routes.push({ method, path: join(base, p), access });
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
